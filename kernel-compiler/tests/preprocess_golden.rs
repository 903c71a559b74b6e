//! Golden tests of the preprocessor: every `tests/corpus/pp/*.cl` is preprocessed (with the
//! build options on a first line `// options: ...`, if any) and the tokens, grouped by source
//! line with their `file:line`, followed by the rendered diagnostics, must equal the
//! `.expected` file next to it. Set `FPGACL_BLESS=1` to rewrite the expected files (then
//! review the diff).

use fpgacl_kernel_compiler::options::BuildOptions;
use fpgacl_kernel_compiler::preprocess::{preprocess, render_tokens, FsResolver};
use fpgacl_kernel_compiler::{Diagnostics, SourceMap};
use std::path::{Path, PathBuf};

const DIR: &str = "tests/corpus/pp";

fn run_case(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read corpus file");
    let opts = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
        .unwrap_or("");
    let opts = BuildOptions::parse(opts).expect("valid options line");
    let pp = opts.pp_options();
    let mut sm = SourceMap::default();
    let main = sm.add(path.to_string_lossy(), text);
    let resolver = FsResolver::new(pp.include_dirs.clone());
    let mut d = Diagnostics::default();
    let toks = preprocess(main, &mut sm, &pp, &resolver, &mut d);
    let mut out = render_tokens(&toks, &sm);
    out.push_str("--- diagnostics ---\n");
    out.push_str(&d.render(&sm));
    out
}

#[test]
fn golden_preprocessor_corpus() {
    // Paths are relative to the crate folder, as in the build of a user's kernel.
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("cd to crate");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(DIR)
        .expect("corpus folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "corpus incomplete: {cases:?}");
    let bless = std::env::var_os("FPGACL_BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let got = run_case(case);
        let expected_path = case.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got).expect("write expected");
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "=== {} differs\n--- got:\n{got}\n--- expected:\n{want}",
                case.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
