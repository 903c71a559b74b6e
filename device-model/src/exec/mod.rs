//! The kernel executor: IR is decoded once per program into compact ops ([`code`],
//! [`decode`]) and interpreted over a flat 64-bit register file per work-item ([`interp`]);
//! [`group`] runs the work-items of a work-group with barrier switching. A compiling backend
//! could replace `interp` behind the same `Plan`/`Worker` interface.

pub mod builtins;
pub mod code;
pub mod decode;
pub mod group;
pub mod interp;
pub mod printf;
pub mod printf_stream;
pub mod values;
