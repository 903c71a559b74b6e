//! The emulated FPGA: board description, execution of kernel IR, the timing model in device
//! clock cycles and the performance counters per access site.

pub mod memory;

pub use memory::DeviceMemory;
