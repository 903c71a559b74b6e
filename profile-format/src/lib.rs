//! `profile.mon`: fpgacl's profiling file format.
//!
//! * [`model`]: what is recorded (header, programs with their static report, records).
//! * [`metrics`]: the profiler's derived metrics (Stall%, Occupancy%, bandwidth, ...).
//! * [`Profile`]: a whole file read back.

pub mod metrics;
pub mod model;
mod profile;

pub use model::*;
pub use profile::Profile;
