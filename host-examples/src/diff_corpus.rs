//! The differential-test corpus: `host-examples/diff/<name>.cl` with a
//! sidecar `<name>.spec` each, run by the generic driver `c/diff_driver.c`.

use std::path::PathBuf;

use crate::examples::c_dir;

/// C programs in [`c_dir`] that are tools taking arguments rather than
/// self-checking examples (so they are not in [`crate::EXAMPLES`]).
pub const TOOL_SOURCES: &[&str] = &["diff_driver.c"];

/// Absolute path of the driver source, `host-examples/c/diff_driver.c`.
pub fn diff_driver_source() -> PathBuf {
    c_dir().join("diff_driver.c")
}

/// Absolute path of `host-examples/diff` (the corpus).
pub fn diff_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("diff")
}

/// One corpus entry: a kernel source and the spec that says how to run it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffCase {
    /// File stem shared by the `.cl` and `.spec` files.
    pub name: String,
    /// The OpenCL C source.
    pub source: PathBuf,
    /// The launch description read by the driver.
    pub spec: PathBuf,
}

/// Absolute path of `host-examples/diff/expected`, the recorded reference
/// (PoCL) outputs: `<name>.out` (result file) and `<name>.stdout` (printf output,
/// present only when not empty).
pub fn diff_expected_dir() -> PathBuf {
    diff_dir().join("expected")
}

impl DiffCase {
    /// The case with this name (its files need not exist).
    pub fn named(name: &str) -> DiffCase {
        DiffCase {
            name: name.to_string(),
            source: diff_dir().join(format!("{name}.cl")),
            spec: diff_dir().join(format!("{name}.spec")),
        }
    }

    /// The recorded reference result file.
    pub fn expected_output(&self) -> PathBuf {
        diff_expected_dir().join(format!("{}.out", self.name))
    }

    /// The recorded reference printf output (absent = nothing printed).
    pub fn expected_stdout(&self) -> PathBuf {
        diff_expected_dir().join(format!("{}.stdout", self.name))
    }

    /// True when the spec has the line `# diff: printf-unordered`: the kernel
    /// prints from several work-groups, whose order is up to the
    /// implementation, so printf output is compared as a sorted list of lines
    /// (an implementation's own runs are still compared exactly).
    pub fn printf_unordered(&self) -> bool {
        std::fs::read_to_string(&self.spec)
            .is_ok_and(|s| s.lines().any(|l| l.trim() == "# diff: printf-unordered"))
    }

    /// True when the spec launches the kernel with `clEnqueueTask`.
    pub fn is_task(&self) -> bool {
        std::fs::read_to_string(&self.spec).is_ok_and(|s| {
            s.lines()
                .map(|l| l.split('#').next().unwrap_or("").trim())
                .any(|l| l == "task")
        })
    }
}

/// Every `.cl` file of the corpus, sorted by name. Panics when the directory
/// cannot be read (it is part of the repository).
pub fn diff_cases() -> Vec<DiffCase> {
    let dir = diff_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "cl")
                .then(|| path.file_stem()?.to_str().map(str::to_string))
                .flatten()
        })
        .collect();
    names.sort();
    names.iter().map(|n| DiffCase::named(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_has_a_spec_naming_it_and_vice_versa() {
        let cases = diff_cases();
        assert!(cases.len() >= 40, "only {} corpus kernels", cases.len());
        for c in &cases {
            let spec = std::fs::read_to_string(&c.spec)
                .unwrap_or_else(|e| panic!("{}: no spec ({e})", c.name));
            let kernel_line = format!("kernel {}", c.name);
            assert!(
                spec.lines().any(|l| l.trim() == kernel_line),
                "{}: spec must say `{kernel_line}`",
                c.name
            );
            let src = std::fs::read_to_string(&c.source).expect("read source");
            assert!(
                src.contains(&format!("void {}(", c.name)),
                "{}: the source defines no kernel of that name",
                c.name
            );
        }
        for entry in std::fs::read_dir(diff_dir()).expect("read corpus") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|x| x == "spec") {
                assert!(
                    path.with_extension("cl").is_file(),
                    "{} has no .cl",
                    path.display()
                );
            }
        }
    }

    #[test]
    fn the_driver_source_exists() {
        assert!(diff_driver_source().is_file());
    }
}
