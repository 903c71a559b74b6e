//! The emulated FPGA: board description, execution of kernel IR, the timing model in device
//! clock cycles and the performance counters per access site.
//!
//! Entry points: [`Board`] (the card as data), [`ProgramInstance`] (a program loaded on the
//! device: channels, autorun kernels, [`ProgramInstance::run`]), [`PipeFifo`] (for
//! `clCreatePipe`), [`Activity`] (running/blocked kernels for deadlock diagnosis).

pub mod activity;
pub mod board;
pub mod counters;
pub mod exec;
pub mod fault;
pub mod fifo;
pub mod image;
pub mod memory;
pub mod program;
pub mod timing;

pub use activity::{Activity, ActivityReport, BlockedOn, KernelActivity, Quiescence};
pub use board::{Board, BoardError, BoardSet, MemoryBankGroup};
pub use counters::{Counters, SiteCounts};
pub use fault::{
    DecodeError, FaultKind, KernelFault, LaunchError, MemRegion, OobMode, OobSite, RunError,
    SourcePos,
};
pub use fifo::{Fifo, PipeFifo};
pub use memory::DeviceMemory;
pub use program::{
    ArgBinding, AutorunStatus, Backend, ExecConfig, LaunchSpec, PrintfSink, ProgramInstance,
    RunReport, WorkerStats,
};
