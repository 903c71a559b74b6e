//! OpenCL semantics: platform, device, context, queues, events, memory objects, programs,
//! kernels, profiling session.
//!
//! This crate knows nothing of C handles: it works on `Arc`'d objects and returns
//! [`CLResult`]s whose errors are OpenCL error codes. The `fpgacl-icd` crate turns handles into
//! these objects, calls in here and maps the results back to the C ABI.

// `is_multiple_of` needs Rust 1.87; the workspace's rust-version is 1.80. Index loops over
// the three NDRange dimensions read better than zipped iterators.
#![allow(clippy::manual_is_multiple_of, clippy::needless_range_loop)]

pub mod bandwidth;
pub mod board;
pub mod cl;
pub mod clock;
pub mod context;
pub mod device;
pub mod error;
pub mod event;
pub mod info;
pub mod logging;
pub mod memory;
pub mod profiling;
pub mod program;
pub mod queue;

pub use board::Board;
pub use context::Context;
pub use device::{platform, Device, Platform};
pub use error::CLResult;
pub use event::Event;
pub use info::{InfoValue, ObjRef};
pub use memory::Mem;
pub use program::Kernel;
pub use program::Program;
pub use queue::Queue;
