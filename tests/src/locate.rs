//! Where the workspace, the cargo profile directory and `libfpgacl.so` are.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Environment variable naming a directory that already holds
/// `libfpgacl.so`; when set, the tests use it and build nothing.
pub const LIB_DIR_ENV: &str = "FPGACL_TEST_LIB_DIR";

/// The workspace root (parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests crate lives inside the workspace")
        .to_path_buf()
}

/// The cargo profile output directory of the running test binary
/// (`<target>/<profile>`), derived from the executable's path
/// (`<target>/<profile>/deps/<test>-<hash>`), so `CARGO_TARGET_DIR` and
/// `--release` are honoured.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("path of the running test binary");
    let mut dir = exe
        .parent()
        .expect("test binary has a directory")
        .to_path_buf();
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir.pop();
    }
    dir
}

/// The cargo profile name matching [`profile_dir`] (`dev` for `debug`).
pub fn cargo_profile() -> String {
    match profile_dir().file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev".to_string(),
        Some(other) => other.to_string(),
    }
}

/// `libfpgacl.so` inside [`fpgacl_lib_dir`].
pub fn fpgacl_lib() -> PathBuf {
    fpgacl_lib_dir().join("libfpgacl.so")
}

/// The directory holding a freshly built `libfpgacl.so`.
///
/// Runs `cargo build -p fpgacl-icd --profile <same profile>` once per test
/// process (cargo does nothing when it is up to date) with the same target
/// directory as the running test. Set `FPGACL_TEST_LIB_DIR` to use a
/// prebuilt library instead. Panics with cargo's output when the build fails.
pub fn fpgacl_lib_dir() -> PathBuf {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match DIR.get_or_init(build_library) {
        Ok(dir) => dir.clone(),
        Err(msg) => panic!("{msg}"),
    }
}

fn build_library() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(LIB_DIR_ENV).filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        let dir = dir.canonicalize().unwrap_or(dir);
        return if dir.join("libfpgacl.so").is_file() {
            Ok(dir)
        } else {
            Err(format!(
                "{LIB_DIR_ENV}={} holds no libfpgacl.so",
                dir.display()
            ))
        };
    }
    let profile_dir = profile_dir();
    let target_dir = profile_dir
        .parent()
        .ok_or("profile directory has no parent")?;
    let cargo = std::env::var("CARGO")
        .ok()
        .or_else(|| option_env!("CARGO").map(str::to_string))
        .unwrap_or_else(|| "cargo".to_string());
    let profile = cargo_profile();
    let output = Command::new(&cargo)
        .current_dir(workspace_root())
        .args(["build", "-p", "fpgacl-icd", "--lib", "--profile", &profile])
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .map_err(|e| format!("cannot run `{cargo} build -p fpgacl-icd`: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "`cargo build -p fpgacl-icd --profile {profile}` failed ({}).\n\
             First errors:\n{}\n\nLast lines:\n{}",
            output.status,
            first_errors(&stderr, 20),
            tail(&stderr, 40)
        ));
    }
    let lib = profile_dir.join("libfpgacl.so");
    if !lib.is_file() {
        return Err(format!(
            "`cargo build -p fpgacl-icd` succeeded but {} does not exist",
            lib.display()
        ));
    }
    Ok(profile_dir.canonicalize().unwrap_or(profile_dir))
}

/// The first `n` compiler error headlines (`error...` lines) with the
/// location line that follows each.
pub(crate) fn first_errors(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("error") {
            out.push(*line);
            if let Some(next) = lines
                .get(i + 1)
                .filter(|l| l.trim_start().starts_with("-->"))
            {
                out.push(next);
            }
            if out.len() >= 2 * n {
                break;
            }
        }
    }
    out.join("\n")
}

/// The last `n` lines of `text`.
pub(crate) fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(n);
    lines[start..].join("\n")
}

/// The `fpgacl` command, built once per test process with the same profile and target dir.
pub fn fpgacl_cli() -> PathBuf {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let res = BIN.get_or_init(|| {
        let profile_dir = profile_dir();
        let target = profile_dir.parent().ok_or("no target dir")?;
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(&cargo)
            .current_dir(workspace_root())
            .args(["build", "-p", "fpgacl-cli", "--profile", &cargo_profile()])
            .env("CARGO_TARGET_DIR", target)
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cargo build -p fpgacl-cli failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(profile_dir.join("fpgacl"))
    });
    match res {
        Ok(p) => p.clone(),
        Err(e) => panic!("{e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_dir_is_inside_a_target_dir() {
        let dir = profile_dir();
        assert!(dir.is_dir(), "{}", dir.display());
        assert!(
            dir.file_name().is_some_and(|n| n != "deps"),
            "{}",
            dir.display()
        );
    }

    #[test]
    fn workspace_root_has_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml"))
            .expect("read workspace Cargo.toml");
        assert!(manifest.contains("[workspace]"));
    }

    #[test]
    fn first_errors_picks_error_headlines_and_locations() {
        let text = "warning: x\nerror[E0277]: bad\n  --> a.rs:1:2\nnote\nerror: could not compile";
        assert_eq!(
            first_errors(text, 5),
            "error[E0277]: bad\n  --> a.rs:1:2\nerror: could not compile"
        );
    }

    #[test]
    fn tail_keeps_the_last_lines() {
        assert_eq!(tail("a\nb\nc", 2), "b\nc");
        assert_eq!(tail("a", 5), "a");
        assert_eq!(tail("", 3), "");
    }
}
