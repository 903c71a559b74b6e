//! OpenCL C front end, typed kernel IR, static FPGA analysis and the `.aocx` container.
//!
//! Pipeline: [`source`] text -> preprocessor -> [`token`]s -> parser -> AST -> type checker ->
//! lowering -> [`ir::Module`]. Every stage reports [`diag::Diagnostic`]s with file:line:column.
//! The entry point for the runtime and the CLI is [`build()`].

pub mod aocx;
pub mod diag;
pub mod ir;
pub mod lexer;
pub mod options;
pub mod preprocess;
pub mod source;
pub mod token;

pub use diag::{Diagnostic, Diagnostics, Severity};
pub use source::{FileId, Loc, SourceFile, SourceMap};
