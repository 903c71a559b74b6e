//! `fpgacl`: the command-line front end.
//!
//! ```text
//! fpgacl aoc kernel.cl -o kernel.aocx   compile + static report, like Intel's `aoc`
//! fpgacl profile -- ./host args         run a host program with profiling on, like `aocl profile`
//! fpgacl report profile.mon             the terminal profiler (or --text / --json)
//! fpgacl info                           the emulated platform, device and board
//! fpgacl aocl compile-config|link-config|...   Intel's `aocl` utility (see `aocl.rs`)
//! fpgacl sdk-root                       an Intel SDK-like folder ($INTELFPGAOCLSDKROOT)
//! ```
//!
//! Invoked under the name `aoc` or `aocl` (a symlink to this binary, as in
//! `$(fpgacl sdk-root)/bin/`), it is that command.

mod aoc;
mod aocl;
mod locate;
mod profile;
mod progress;
mod report;
mod sdk;

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
    /// Compile OpenCL C into an .aocx and print the static FPGA report (Intel's aoc command
    /// line: `fpgacl aoc -help`).
    #[command(disable_help_flag = true)]
    Aoc {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Intel's aocl utility: compile-config, link-config, ldflags, ldlibs, list-devices,
    /// diagnose, version, profile, report, library create, help.
    #[command(disable_help_flag = true)]
    Aocl {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Print (creating it if needed) an Intel SDK-like folder to use as $INTELFPGAOCLSDKROOT:
    /// bin/aoc, bin/aocl, host/include, host/linux64/lib, board/.
    SdkRoot,
    /// Run a host program against fpgacl with profiling on and summarise the profile.
    Profile(profile::ProfileArgs),
    /// Open the terminal profiler on a profile.mon (or print it with --text / --json).
    Report(report::ReportArgs),
    /// Show where libfpgacl.so and its ICD file are.
    Info,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // Under the name `aoc` or `aocl` (a symlink), this binary is that command.
    let invoked = args
        .first()
        .map(|a| {
            std::path::Path::new(a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .unwrap_or_default();
    match invoked.as_str() {
        "aoc" => return aoc::main(&args[1..]),
        "aocl" => return aocl::main(&args[1..]),
        _ => {}
    }
    // `fpgacl aoc ...` / `fpgacl aocl ...`: Intel's own command lines, not clap's.
    match args.get(1).map(String::as_str) {
        Some("aoc") => return aoc::main(&args[2..]),
        Some("aocl") => return aocl::main(&args[2..]),
        _ => {}
    }
    let cli = Cli::parse_from(args);
    let result = match cli.command {
        Command::Aoc { args } => Ok(aoc::main(&args)),
        Command::Aocl { args } => Ok(aocl::main(&args)),
        Command::Profile(args) => profile::run(args),
        Command::Report(args) => report::run(args),
        Command::Info => locate::print_info(),
        Command::SdkRoot => sdk::print_root(),
    };
    finish(result)
}

/// The exit code of a command's result; an error is printed as `fpgacl: <message>`.
pub fn finish(result: Result<ExitCode, String>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(msg) => {
            err(&format!("fpgacl: {msg}\n"));
            ExitCode::from(2)
        }
    }
}

/// Runs `fpgacl <args>` parsed by clap (for `aocl profile` / `aocl report`).
pub fn run_subcommand(args: Vec<String>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    finish(match cli.command {
        Command::Profile(args) => profile::run(args),
        Command::Report(args) => report::run(args),
        _ => Err("unexpected subcommand".into()),
    })
}
