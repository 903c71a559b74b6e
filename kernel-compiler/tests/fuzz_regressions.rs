//! Inputs found by fuzzing (`fuzz/fuzz_targets/parse.rs`) and the fuzzer's kept corpus, run
//! through the same uncaught pipeline as the fuzz target: preprocess, parse, type check and
//! lower on a large-stack thread with no `catch_unwind`, so a panic in any stage fails the test.
//! Then each input goes through `build()`, which must fail with located diagnostics (or
//! succeed with a module), never with an "internal compiler error".
//!
//! `tests/corpus/fuzz/` holds minimised reproducers of crashes fixed in the compiler;
//! `fuzz/corpus/parse/` holds a coverage-minimised sample of the fuzzer's corpus.

use fpgacl_kernel_compiler::lower::lower;
use fpgacl_kernel_compiler::parse::parse;
use fpgacl_kernel_compiler::preprocess::{preprocess, MapResolver, PpOptions};
use fpgacl_kernel_compiler::{build, Diagnostics, Severity, SourceFile, SourceMap};
use std::path::{Path, PathBuf};

/// The compiler thread's stack in `build()`.
const STACK: usize = 256 << 20;

/// Runs the front end without `catch_unwind`; `Ok(true)` when the input reached lowering,
/// `Err` carries the panic message.
fn uncaught_pipeline(text: String) -> Result<bool, String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut sm = SourceMap::default();
            let main = sm.add("fuzz.cl", text.as_str());
            let mut d = Diagnostics::default();
            let toks = preprocess(
                main,
                &mut sm,
                &PpOptions::default(),
                &MapResolver::default(),
                &mut d,
            );
            if d.has_errors() {
                return false;
            }
            let tu = parse(&toks, &mut d);
            let lowered = !d.has_errors();
            if lowered {
                let _ = lower(&tu, &mut d);
            }
            let _ = d.render(&sm);
            lowered
        })
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "non-string panic".into())
        })
}

fn inputs(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|r| {
            r.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && !p.ends_with("README.md"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Checks every input of `dir`; returns how many reached lowering.
fn check_dir(dir: &str, min_files: usize) -> usize {
    let files = inputs(dir);
    assert!(
        files.len() >= min_files,
        "{dir}: expected at least {min_files} inputs, found {}",
        files.len()
    );
    let mut problems = vec![];
    let mut lowered = 0;
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        match uncaught_pipeline(text.clone()) {
            Ok(reached) => lowered += usize::from(reached),
            Err(msg) => {
                problems.push(format!("{}: panicked: {msg}", f.display()));
                continue;
            }
        }
        let src = SourceFile {
            name: "fuzz.cl".into(),
            text,
        };
        let out = match build(&[src], "") {
            Ok(o) => o,
            Err(e) => {
                problems.push(format!("{}: build() returned {e}", f.display()));
                continue;
            }
        };
        if out.log.contains("internal compiler error") {
            problems.push(format!("{}: {}", f.display(), out.log));
        }
        let has_error = out
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
        if out.module.is_none() && !has_error {
            problems.push(format!(
                "{}: failed without an error diagnostic",
                f.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    lowered
}

#[test]
fn fixed_fuzz_crashes_give_diagnostics_not_panics() {
    check_dir("tests/corpus/fuzz", 0);
}

#[test]
fn kept_fuzz_corpus_compiles_without_panics() {
    let lowered = check_dir("fuzz/corpus/parse", 100);
    // The sample must exercise the type checker and lowering, not only the parser.
    assert!(
        lowered >= 100,
        "only {lowered} kept inputs reached lowering"
    );
    eprintln!("{lowered} kept fuzz inputs reached lowering");
}

/// Corpus maintenance, not a check: `FUZZ_CLASSIFY_DIR=dir cargo test --test fuzz_regressions
/// -- --ignored --nocapture` prints `lowered <path>` for each input of `dir` that reaches
/// lowering (used to pick the kept sample so that it exercises the type checker).
#[test]
#[ignore]
fn classify_inputs() {
    let Ok(dir) = std::env::var("FUZZ_CLASSIFY_DIR") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for f in files {
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        if uncaught_pipeline(text) == Ok(true) {
            println!("lowered {}", f.display());
        }
    }
}
