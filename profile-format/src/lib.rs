//! `profile.mon`: fpgacl's profiling file format.
//!
//! * [`model`]: what is recorded (header, programs with their static report, records).
//! * [`metrics`]: the profiler's derived metrics (Stall%, Occupancy%, bandwidth, ...).
//! * [`ProfileWriter`]: appends frames as the host runs, safe against the host being killed.
//! * [`read_profile`]: reads a file back into a [`Profile`], up to its last whole frame.
//! * [`exports`]: JSON, Intel's text layout, Chrome/Perfetto trace.
//! * [`frame`]: the byte layout (documented there and in `SCHEMA.md`).
//! * [`sample`]: deterministic sample content for tests and fixtures.
//! * [`terminal_safe`]: the escaping of control characters for everything printed to a
//!   terminal.
//!
//! ```
//! use fpgacl_profile_format::{read_profile, sample, ProfileWriter};
//!
//! let path = std::env::temp_dir().join(format!("doc-{}.mon", std::process::id()));
//! let writer = ProfileWriter::create(&path, &sample::header())?;
//! writer.write_program(&sample::program())?;
//! writer.write_record(&sample::record(0))?;
//! drop(writer);
//!
//! let profile = read_profile(&path)?;
//! assert_eq!(profile.records, vec![sample::record(0)]);
//! let run = profile.kernel_runs().next().unwrap();
//! let stall = run.sites[0].stall_pct(); // Option<f64>, None when nothing was counted
//! assert!(stall.is_some());
//! # std::fs::remove_file(&path).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
pub mod exports;
mod fast_decode;
pub mod frame;
#[doc(hidden)]
pub mod fuzzing;
pub mod metrics;
pub mod model;
mod profile;
mod reader;
pub mod sample;
mod source;
pub mod terminal_safe;
mod writer;

pub use error::{FormatProblem, ReadError, WriteError};
pub use model::*;
pub use profile::Profile;
pub use reader::{read_profile, read_profile_bytes};
pub use writer::ProfileWriter;
