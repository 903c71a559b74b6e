//! The kernel executor: IR is decoded once per program into compact ops ([`code`],
//! [`decode`]) and interpreted over a flat 64-bit register file per work-item ([`interp`]);
//! [`group`] runs the work-items of a work-group with barrier switching. [`jit`] compiles
//! kernels to native code with Cranelift at their first launch (the default backend;
//! `FPGACL_BACKEND=interp` keeps the interpreter) and runs them behind
//! `interp::Machine::run`.

pub mod batch;
pub mod builtins;
pub mod code;
pub mod decode;
pub mod group;
pub mod interp;
pub mod jit;
pub mod printf;
pub mod printf_stream;
pub mod values;
