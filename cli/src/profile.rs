//! `fpgacl profile`: run an unmodified host program against fpgacl with profiling on.

use crate::locate;
use clap::Args;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

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
    /// The host program and its arguments (put `--` before them if they start with `-`).
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// Runs the host with the ICD selected and profiling variables set; passes its exit status
/// through.
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
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    eprintln!("fpgacl: profile written to {}", args.output.display());
    Ok(match status.code() {
        Some(c) => ExitCode::from(c as u8),
        None => {
            eprintln!("fpgacl: {program} was killed by a signal");
            ExitCode::from(128)
        }
    })
}
