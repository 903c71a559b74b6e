//! The host timeline used for event profiling timestamps (nanoseconds, monotonic).

use std::sync::OnceLock;
use std::time::Instant;

static ORIGIN: OnceLock<Instant> = OnceLock::new();

/// Nanoseconds since the runtime's clock origin (first use), never 0, monotonic.
pub fn now_ns() -> u64 {
    let origin = *ORIGIN.get_or_init(Instant::now);
    origin.elapsed().as_nanos() as u64 + 1
}
