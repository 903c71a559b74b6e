//! [`ReportError`]: why the profiler could not start or had to stop.

use std::path::PathBuf;

use thiserror::Error;

/// Errors of [`crate::run_report`].
#[derive(Debug, Error)]
pub enum ReportError {
    /// Wrong number of files (one to view, two to compare).
    #[error("give one profile.mon to view or two to compare (got {0})")]
    Usage(usize),
    /// A file could not be read as a profile.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: fpgacl_profile_format::ReadError,
    },
    /// A signal (SIGTERM, SIGHUP, ...) stopped the profiler; the terminal was restored.
    #[error("stopped by signal {0}")]
    Signal(i32),
    /// Standard input or output is not a terminal (piped or redirected).
    #[error(
        "the interactive profiler needs a terminal; use --text or --json for a report on a pipe"
    )]
    NotATerminal,
    /// The terminal could not be set up or drawn.
    #[error("terminal error: {0}")]
    Terminal(#[from] std::io::Error),
}

impl ReportError {
    /// The exit status for a command that ends with this error: 128 + the signal number for
    /// [`ReportError::Signal`] (as a shell reports a process killed by that signal), else
    /// `other`.
    pub fn exit_status(&self, other: u8) -> u8 {
        match self {
            ReportError::Signal(sig) => u8::try_from(128 + sig).unwrap_or(other),
            _ => other,
        }
    }
}
