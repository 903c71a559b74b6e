//! The OpenCL C preprocessor (C99 6.10 plus the pieces OpenCL and Intel's `aoc` add).
//!
//! [`preprocess`] runs on a main file of a [`SourceMap`] and returns the parser's token stream
//! (ending with [`TokenKind::Eof`]): macros expanded (object- and function-like, `#`, `##`,
//! variadic, rescanning with Prosser's hide sets so that no macro expands inside itself),
//! conditionals evaluated, `#include`d files read through an [`IncludeResolver`] and added to
//! the `SourceMap`, and `#pragma` lines kept as [`TokenKind::Pragma`] tokens where they stood.
//!
//! Layout: [`engine`] (file stack, directives, conditionals, includes, pragmas), [`macros`]
//! (definitions and expansion), [`expr`] (`#if` expressions), [`predefined`] (built-in macros),
//! [`resolve`] (include resolvers), [`render`] (tokens back to text).

mod engine;
mod expr;
mod macros;
mod predefined;
mod render;
mod resolve;

use crate::diag::Diagnostics;
use crate::source::{FileId, SourceMap};
use crate::token::Token;
use std::path::PathBuf;

pub use predefined::{predefined_macros, DEVICE_EXTENSIONS};
pub use render::{render_tokens, token_text};
pub use resolve::{FsResolver, IncludeResolver, MapResolver};

/// What the build options tell the preprocessor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PpOptions {
    /// `-D name[=value]` in command-line order (`None` = defined as `1`).
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name` in command-line order (applied after the defines, like GCC does for
    /// options given in that order).
    pub undefines: Vec<String>,
    /// `-I dir` in command-line order.
    pub include_dirs: Vec<PathBuf>,
    /// OpenCL C version for `__OPENCL_C_VERSION__` (100, 110, 120 or 200).
    pub cl_c_version: u32,
    /// Board name from `-board=`: defines `AOCL_BOARD_<board>`.
    pub board: Option<String>,
    /// `-cl-fast-relaxed-math`: defines `__FAST_RELAXED_MATH__`.
    pub fast_relaxed_math: bool,
    /// `-cl-finite-math-only` (or fast relaxed math): `__FINITE_MATH_ONLY__` is 1.
    pub finite_math_only: bool,
    /// `-include FILE`: read before the main file, as if `#include "FILE"` were its first
    /// line (found like a quoted include from the main file's folder, then `-I`).
    pub forced_includes: Vec<String>,
}

impl Default for PpOptions {
    fn default() -> Self {
        PpOptions {
            defines: Vec::new(),
            undefines: Vec::new(),
            include_dirs: Vec::new(),
            cl_c_version: 120,
            board: None,
            fast_relaxed_math: false,
            finite_math_only: false,
            forced_includes: Vec::new(),
        }
    }
}

/// Preprocesses file `main` of `sources`.
///
/// Included files are appended to `sources` (so that diagnostics and the `.aocx` see them).
/// Every problem is reported in `diags` with its file:line:column; the returned tokens always
/// end with [`crate::token::TokenKind::Eof`], even after errors.
pub fn preprocess(
    main: FileId,
    sources: &mut SourceMap,
    opts: &PpOptions,
    includes: &dyn IncludeResolver,
    diags: &mut Diagnostics,
) -> Vec<Token> {
    engine::Pp::new(sources, opts, includes, diags).run(main)
}

#[cfg(test)]
mod tests;
