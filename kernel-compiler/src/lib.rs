//! OpenCL C front end, typed kernel IR, static FPGA analysis and the `.aocx` container.
//!
//! Pipeline: [`source`] text -> preprocessor -> [`token`]s -> parser -> AST -> type checker ->
//! lowering -> [`ir::Module`]. Every stage reports [`diag::Diagnostic`]s with file:line:column.
//! The entry point for the runtime and the CLI is [`build()`].
//!
//! Stages: [`lexer`] and [`preprocess`] (tokens with the user's locations, `#pragma` kept),
//! [`parse`] ([`ast`]), [`sema`] (types, the builtin table, constant expressions, attribute
//! checks) used by [`lower`] (type checks while it translates, inlines helper functions,
//! records loops, access sites and kernel metadata, then verifies the IR), [`dump`] (readable
//! IR text), [`analysis`] (static FPGA report) and [`aocx`] (the binary container).
//! [`link`] is separate compilation (`clCompileProgram` objects, `clLinkProgram` by symbol).
//!
//! Not supported (reported with an error, never a crash): images and samplers in kernels,
//! bit-fields, function pointers, variable-length arrays, `goto`, recursion, program-scope
//! `__global` variables and other OpenCL 2.0 features (generic address space, blocks,
//! device-side enqueue, pipe reservations and `work_group_*` collectives), `double`/`half`
//! extensions checks (both are always available; `half` arithmetic computes in `float`).

pub mod analysis;
pub mod aoc_flags;
pub mod aocx;
pub mod ast;
pub mod build;
pub mod diag;
pub mod dump;
pub mod ir;
pub mod lexer;
pub mod link;
pub mod lower;
pub mod options;
pub mod parse;
pub mod preprocess;
pub mod sema;
pub mod source;
pub mod token;

pub use build::{build, build_parsed, build_with, BuildError, BuildOutput};
pub use diag::{Diagnostic, Diagnostics, Severity};
pub use source::{FileId, Loc, SourceFile, SourceMap};
