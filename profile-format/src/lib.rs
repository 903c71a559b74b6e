//! `profile.mon`: fpgacl's profiling file format.
//!
//! * [`model`]: what is recorded (header, programs with their static report, records).
//! * [`metrics`]: the profiler's derived metrics (Stall%, Occupancy%, bandwidth, ...).
//! * [`ProfileWriter`]: appends frames as the host runs, safe against the host being killed.
//! * [`read_profile`]: reads a file back into a [`Profile`], up to its last whole frame.
//! * [`frame`]: the byte layout (documented there and in `SCHEMA.md`).
//! * [`exports`]: JSON, Intel's text layout, Chrome/Perfetto trace.
//! * [`sample`]: deterministic sample content for tests and fixtures.

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
mod writer;

pub use error::{FormatProblem, ReadError, WriteError};
pub use model::*;
pub use profile::Profile;
pub use reader::{read_profile, read_profile_bytes};
pub use writer::ProfileWriter;
