//! OpenCL C front end, typed kernel IR, static FPGA analysis and the `.aocx` container.
//!
//! Pipeline: [`source`] text -> preprocessor -> [`token`]s -> parser -> AST -> type checker ->
//! lowering -> [`ir::Module`]. Every stage reports [`diag::Diagnostic`]s with file:line:column.
//! The entry point for the runtime and the CLI is [`build()`].

pub mod analysis;
pub mod aocx;
pub mod ast;
pub mod build;
pub mod diag;
pub mod dump;
pub mod ir;
pub mod lexer;
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
