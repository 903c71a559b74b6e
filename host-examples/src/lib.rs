//! C host programs and kernels used as examples and end-to-end tests.
//!
//! The programs live in `host-examples/c/` (one `.c` file each, plus
//! `common.h` and, for kernel examples, `.cl` files under `c/kernels/`).
//! They are ordinary OpenCL host programs written against the standard
//! OpenCL 1.2 API (plus `clCreatePipe`, `clGetPipeInfo` and
//! `clCreateCommandQueueWithProperties`), so they run on any conformant
//! implementation. Each selects its platform by a case-insensitive substring
//! of `CL_PLATFORM_NAME` from the environment variable `HOST_PLATFORM`
//! (default `"Intel(R) FPGA SDK for OpenCL(TM)"`), checks its own results and
//! exits 0 only on success, printing `FAIL: ...` otherwise.
//!
//! This crate lists the examples ([`EXAMPLES`]) and compiles them with `gcc`
//! ([`compile`], [`Compiler`]), either against the system ICD loader
//! (`-lOpenCL`, [`Linkage::IcdLoader`]) or directly against `libfpgacl.so`
//! ([`Linkage::Direct`]).
//!
//! It also holds the differential-test corpus (`host-examples/diff/`, see
//! [`diff_cases`]) and the generic driver that runs one corpus kernel and
//! dumps its outputs (`c/diff_driver.c`, see [`diff_driver_source`]).

mod compile;
mod diff_corpus;
mod examples;

pub use compile::{compile, CompileError, Compiler, Linkage};
pub use diff_corpus::{
    diff_cases, diff_dir, diff_driver_source, diff_expected_dir, DiffCase, TOOL_SOURCES,
};
pub use examples::{c_dir, example, kernels_dir, Example, EXAMPLES};
