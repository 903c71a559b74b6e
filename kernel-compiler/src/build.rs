//! The compiler entry point used by the runtime (`clBuildProgram`) and the CLI (`fpgacl aoc`):
//! options -> preprocessor -> parser -> type checking and lowering -> [`ir::Module`], with every
//! diagnostic rendered into the build log.

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::ir;
use crate::options::BuildOptions;
use crate::preprocess::{self, FsResolver, IncludeResolver};
use crate::source::{SourceFile, SourceMap};
use std::sync::Arc;

/// Stack size of the compiler thread.
const COMPILER_STACK: usize = 256 << 20;

/// The result of a build that got past option parsing.
#[derive(Clone, Debug)]
pub struct BuildOutput {
    /// The compiled program; `None` when the build failed.
    pub module: Option<Arc<ir::Module>>,
    /// The build log (`CL_PROGRAM_BUILD_LOG`): every diagnostic rendered with file:line:col,
    /// the source line and a caret.
    pub log: String,
    /// The diagnostics themselves (after `-w` / `-Werror`).
    pub diagnostics: Vec<Diagnostic>,
}

/// A build that could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The options string is not valid (`CL_INVALID_BUILD_OPTIONS`).
    #[error("invalid build options: {0}")]
    InvalidOptions(String),
}

/// Builds a program from sources with an options string; `#include` is resolved on disk
/// (the including file's folder, then `-I` folders).
pub fn build(sources: &[SourceFile], options: &str) -> Result<BuildOutput, BuildError> {
    let opts = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
    let resolver = FsResolver::new(opts.include_dirs.clone());
    Ok(build_parsed(sources, &opts, &resolver))
}

/// Like [`build`], with a caller-supplied include resolver (rebuilding from an `.aocx`).
pub fn build_with(
    sources: &[SourceFile],
    options: &str,
    resolver: &dyn IncludeResolver,
) -> Result<BuildOutput, BuildError> {
    let opts = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
    Ok(build_parsed(sources, &opts, resolver))
}

/// Builds with already-parsed options.
pub fn build_parsed(
    sources: &[SourceFile],
    opts: &BuildOptions,
    resolver: &dyn IncludeResolver,
) -> BuildOutput {
    let mut sm = SourceMap::default();
    // Several sources form one program, as if concatenated.
    let main = match sources {
        [one] => sm.add(one.name.clone(), one.text.clone()),
        many => {
            let mut text = String::new();
            for s in many {
                text.push_str(&s.text);
                if !s.text.ends_with('\n') {
                    text.push('\n');
                }
            }
            let name = match many.first() {
                Some(f) if many.iter().all(|s| s.name == f.name) => f.name.clone(),
                _ => "<source>".to_string(),
            };
            sm.add(name, text)
        }
    };
    let mut diags = Diagnostics::default();
    let pp = opts.pp_options();
    // The front end recurses over the syntax tree: run it on a thread with a large stack so
    // that deeply nested (but bounded) input cannot overflow the caller's stack. A panic
    // (a compiler bug) becomes an error diagnostic instead of taking the process down.
    // The preprocessor runs here (it reads includes through the caller's resolver).
    let pre = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut d = Diagnostics::default();
        let mut sm2 = sm.clone();
        let tokens = preprocess::preprocess(main, &mut sm2, &pp, resolver, &mut d);
        (sm2, d, tokens)
    }));
    let (sm_pp, d_pp, tokens) = match pre {
        Ok(x) => x,
        Err(_) => {
            let mut d = Diagnostics::default();
            d.error(
                crate::source::Loc::new(main, 1, 1),
                "internal compiler error: the preprocessor failed on this input (please report it)",
            );
            (sm.clone(), d, vec![])
        }
    };
    let work = move || {
        let mut d = d_pp;
        let mut module = None;
        if !d.has_errors() {
            let tu = crate::parse::parse(&tokens, &mut d);
            if !d.has_errors() {
                let lopts = crate::lower::LowerOptions {
                    single_precision_constant: opts.single_precision_constant,
                };
                let m = crate::lower::lower_with(&tu, &mut d, lopts);
                module = Some(m);
            }
        }
        (sm_pp, d, module)
    };
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("fpgacl-compile".into())
            .stack_size(COMPILER_STACK)
            .spawn_scoped(scope, work)
            .map_err(|_| ())
            .and_then(|h| h.join().map_err(|_| ()))
    });
    let module = match result {
        Ok((sm2, d, module)) => {
            sm = sm2;
            diags = d;
            module
        }
        Err(_) => {
            diags.error(
                crate::source::Loc::new(main, 1, 1),
                "internal compiler error: the compiler failed on this input (please report it)",
            );
            None
        }
    };
    // -w drops warnings; -Werror turns them into errors. A helper function inlined at several
    // call sites reports the same problem once.
    let mut seen = std::collections::HashSet::new();
    let mut list: Vec<Diagnostic> = diags
        .list
        .into_iter()
        .filter(|d| !(opts.no_warnings && d.severity == Severity::Warning))
        .filter(|d| seen.insert((d.loc, d.severity as u8, d.message.clone())))
        .collect();
    // Source order (kernels and helpers are checked in a different order than they appear).
    list.sort_by_key(|d| d.loc);
    if opts.werror {
        for d in &mut list {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
                d.message.push_str(" [-Werror]");
            }
        }
    }
    let failed = list.iter().any(|d| d.severity == Severity::Error);
    let rendered = Diagnostics { list: list.clone() }.render(&sm);
    let module = match module {
        Some(mut m) if !failed => {
            m.sources = sm;
            Some(Arc::new(m))
        }
        _ => None,
    };
    let mut log = rendered;
    if module.is_none() {
        let n = list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        log.push_str(&format!(
            "{n} error{} generated.\n",
            if n == 1 { "" } else { "s" }
        ));
    }
    BuildOutput {
        module,
        log,
        diagnostics: list,
    }
}
