//! Exports of a [`Profile`] for other tools: JSON of everything ([`json`]), Intel's text
//! record layout ([`intel_text`]) and a Chrome/Perfetto trace ([`chrome_trace`]).
//!
//! Every export streams into any `std::io::Write` and returns only I/O errors; none of them
//! panics on any profile the reader accepts.

pub mod chrome_trace;
pub mod intel_text;
pub mod json;

use crate::Profile;

pub use chrome_trace::write_chrome_trace;
pub use intel_text::write_intel_text;
pub use json::{write_json, write_json_pretty};

/// Runs every export into a sink (used by the fuzz harness).
pub(crate) fn exercise_all(p: &Profile) {
    let _ = write_json(p, std::io::sink());
    let _ = write_intel_text(p, std::io::sink());
    let _ = write_chrome_trace(p, std::io::sink());
}
