//! The compiler entry point used by the runtime (`clBuildProgram`) and the CLI (`fpgacl aoc`):
//! options -> preprocessor -> parser -> type checking and lowering -> [`ir::Module`], with every
//! diagnostic rendered into the build log.

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::ir;
use crate::options::BuildOptions;
use crate::preprocess::{self, FsResolver, IncludeResolver};
use crate::source::{SourceFile, SourceMap};
use crate::token::{FloatSuffix, Token, TokenKind};
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
    let main = add_main_file(&mut sm, sources);
    let (sm_pp, d_pp, tokens) = preprocess_unit(main, &sm, opts, resolver);
    let work = move || {
        let mut d = d_pp;
        let mut module = None;
        if !d.has_errors() {
            let tu = crate::parse::parse(&tokens, &mut d);
            if !d.has_errors() {
                crate::link::report_undefined_extern_vars(&tu, &mut d);
                module = Some(crate::lower::lower(&tu, &mut d));
            }
        }
        (sm_pp, d, module)
    };
    let (diags, module) = match on_compiler_stack(work) {
        Some((sm2, d, module)) => {
            sm = sm2;
            (d, module)
        }
        None => {
            let mut diags = Diagnostics::default();
            diags.error(
                crate::source::Loc::new(main, 1, 1),
                "internal compiler error: the compiler failed on this input (please report it)",
            );
            (diags, None)
        }
    };
    let list = finish_diagnostics(diags, opts.no_warnings, opts.werror);
    let failed = list.iter().any(|d| d.severity == Severity::Error);
    let module = match module {
        Some(mut m) if !failed => {
            m.sources = sm.clone();
            Some(Arc::new(m))
        }
        _ => None,
    };
    let log = render_log(&list, &sm, module.is_none());
    BuildOutput {
        module,
        log,
        diagnostics: list,
    }
}

/// Preprocesses file `main` of `sm` (a copy: included files are added to the returned map)
/// with the unit's options. `-cl-single-precision-constant` is applied here, to the tokens:
/// unsuffixed floating literals become `float`, so that a compiled object keeps its unit's
/// choice when it is linked with others. A panic of the preprocessor (a compiler bug)
/// becomes an error diagnostic.
pub(crate) fn preprocess_unit(
    main: crate::source::FileId,
    sm: &SourceMap,
    opts: &BuildOptions,
    resolver: &dyn IncludeResolver,
) -> (SourceMap, Diagnostics, Vec<Token>) {
    let pp = opts.pp_options();
    let pre = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut d = Diagnostics::default();
        let mut sm2 = sm.clone();
        let tokens = preprocess::preprocess(main, &mut sm2, &pp, resolver, &mut d);
        (sm2, d, tokens)
    }));
    match pre {
        Ok((sm2, d, mut tokens)) => {
            if opts.single_precision_constant {
                for t in &mut tokens {
                    if let TokenKind::Float { suffix, .. } = &mut t.kind {
                        if *suffix == FloatSuffix::None {
                            *suffix = FloatSuffix::F;
                        }
                    }
                }
            }
            (sm2, d, tokens)
        }
        Err(_) => {
            let mut d = Diagnostics::default();
            d.error(
                crate::source::Loc::new(main, 1, 1),
                "internal compiler error: the preprocessor failed on this input (please report it)",
            );
            (sm.clone(), d, vec![])
        }
    }
}

/// Runs `work` on a thread with a large stack: the front end recurses over the syntax tree, so
/// deeply nested (but bounded) input cannot overflow the caller's stack. `None` when the work
/// panicked (a compiler bug), which the caller reports as an internal error.
pub(crate) fn on_compiler_stack<T: Send>(work: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("fpgacl-compile".into())
            .stack_size(COMPILER_STACK)
            .spawn_scoped(scope, work)
            .ok()
            .and_then(|h| h.join().ok())
    })
}

/// The diagnostics of a build as reported: `-w` drops warnings, `-Werror` turns them into
/// errors, duplicates (a helper inlined at several call sites reports a problem once) are
/// removed, and the list is in source order.
pub(crate) fn finish_diagnostics(
    diags: Diagnostics,
    no_warnings: bool,
    werror: bool,
) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    let mut list: Vec<Diagnostic> = diags
        .list
        .into_iter()
        .filter(|d| !(no_warnings && d.severity == Severity::Warning))
        .filter(|d| seen.insert((d.loc, d.severity as u8, d.message.clone())))
        .collect();
    // Source order (kernels and helpers are checked in a different order than they appear).
    list.sort_by_key(|d| d.loc);
    if werror {
        for d in &mut list {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
                d.message.push_str(" [-Werror]");
            }
        }
    }
    list
}

/// The build log of a list of diagnostics; a failed build ends with "N errors generated.".
pub(crate) fn render_log(list: &[Diagnostic], sm: &SourceMap, failed: bool) -> String {
    let mut log = Diagnostics {
        list: list.to_vec(),
    }
    .render(sm);
    if failed {
        let n = list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        log.push_str(&format!(
            "{n} error{} generated.\n",
            if n == 1 { "" } else { "s" }
        ));
    }
    log
}

/// Adds the program text of `sources` to `sm` as one main file: several sources form one
/// program, as if concatenated.
pub(crate) fn add_main_file(sm: &mut SourceMap, sources: &[SourceFile]) -> crate::source::FileId {
    match sources {
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
    }
}
