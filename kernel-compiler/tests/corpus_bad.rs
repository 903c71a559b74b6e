//! Broken kernels and the diagnostics they must produce.
//!
//! Each `tests/corpus/bad/NAME.cl` has a `NAME.expected` file listing, one per line, the
//! `file:line:col: severity: message` lines of its build log, in order. A first source line
//! `// options: ...` gives build options. Every build must fail, and the log must carry the
//! offending source line and a caret under each diagnostic.

use fpgacl_kernel_compiler::{build, SourceFile};
use std::path::Path;

fn headlines(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: ") || l.contains(": note: "))
        .filter(|l| l.split(':').count() >= 4)
        .map(str::to_string)
        .collect()
}

#[test]
fn broken_kernels_give_the_expected_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "bad corpus too small");
    let mut problems = vec![];
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let options = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// options:"))
            .unwrap_or("")
            .trim()
            .to_string();
        let expected_path = f.with_extension("expected");
        let expected: Vec<String> = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("{} is missing", expected_path.display()))
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        let out = build(
            &[SourceFile {
                name: name.clone(),
                text: text.clone(),
            }],
            &options,
        )
        .unwrap();
        if out.module.is_some() {
            problems.push(format!("{name}: build succeeded but must fail"));
            continue;
        }
        let got = headlines(&out.log);
        if got != expected {
            problems.push(format!(
                "{name}:\n--- expected\n{}\n--- got\n{}",
                expected.join("\n"),
                got.join("\n")
            ));
        }
        // Each diagnostic is followed by its source line and a caret.
        for d in &out.diagnostics {
            if d.loc.line == 0 {
                continue;
            }
            let line = text.lines().nth(d.loc.line as usize - 1).unwrap_or("");
            assert!(
                out.log.contains(&format!("{line}\n")),
                "{name}: source line missing in log"
            );
        }
        assert!(out.log.contains('^'), "{name}: no caret in log");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
