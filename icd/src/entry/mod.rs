//! The exported `cl*` entry points, by object kind.

pub mod context;
pub mod enqueue;
pub mod event;
pub mod intel;
pub mod memory;
pub mod platform;
pub mod program;
pub mod queue;
pub mod svm;

pub use context::*;
pub use enqueue::*;
pub use event::*;
pub use intel::*;
pub use memory::*;
pub use platform::*;
pub use program::*;
pub use queue::*;
pub use svm::*;
