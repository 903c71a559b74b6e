//! The fpgacl terminal profiler: what the Intel FPGA Dynamic Profiler GUI shows, in a terminal.
//!
//! * [`run_report`] opens one `profile.mon` (or two to compare) interactively.
//! * [`App`] + [`ui::draw`] are the pure state and drawing, testable on ratatui's
//!   `TestBackend`; [`load_app`] builds an [`App`] from files.
//! * [`text::report_text`] / [`text::compare_text`] render the same content headless.
//!
//! Tabs: Source Code (per-line Stall%, Occupancy%, Bandwidth of memory and channel accesses
//! with the GUI's tooltip data and a diagnosis), Kernel Execution (timeline), Autorun Captures
//! (when the file has captures) and Compare (with two files).

pub mod app;
pub mod compare;
pub mod data;
pub mod demo;
pub mod diagnosis;
pub mod error;
pub mod fmt;
mod terminal;
pub mod text;
pub mod theme;
pub mod timeline;
pub mod ui;

use std::path::{Path, PathBuf};

pub use app::{App, Tab};
pub use data::{ReportData, Scope};
pub use error::ReportError;
pub use theme::Theme;

/// Reads one profile and prepares it for display.
pub fn load_data(path: &Path) -> Result<ReportData, ReportError> {
    let profile =
        fpgacl_profile_format::read_profile(path).map_err(|source| ReportError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(ReportData::new(path.display().to_string(), profile))
}

/// Builds the app for one file (view) or two files (compare the first with the second).
pub fn load_app(paths: &[PathBuf], theme: Theme) -> Result<App, ReportError> {
    match paths {
        [one] => Ok(App::new(load_data(one)?, theme)),
        [before, after] => Ok(App::compare(load_data(before)?, load_data(after)?, theme)),
        other => Err(ReportError::Usage(other.len())),
    }
}

/// Opens the interactive profiler on one file, or on two files to compare them. Returns when
/// the user quits (`q`, Ctrl-C); the terminal is restored on every way out (also on panic and
/// on SIGTERM/SIGHUP/SIGQUIT/SIGINT, which return [`ReportError::Signal`]). A file that cannot
/// be read is an error before the terminal is touched. Colours follow `NO_COLOR`.
pub fn run_report(paths: &[PathBuf]) -> Result<(), ReportError> {
    let app = load_app(paths, Theme::from_env())?;
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(ReportError::NotATerminal);
    }
    match terminal::run(app)? {
        None => Ok(()),
        Some(sig) => Err(ReportError::Signal(sig)),
    }
}

/// Restores the terminal (leave raw mode and the alternate screen) if the profiler left it
/// changed; for callers that handle signals themselves.
pub fn restore_terminal() {
    terminal::restore();
}
