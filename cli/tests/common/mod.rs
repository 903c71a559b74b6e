//! Helpers shared by the `fpgacl` binary's integration tests.

use std::path::PathBuf;
use std::process::Command;

/// The `fpgacl` binary built for these tests.
pub fn fpgacl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fpgacl"))
}

/// An empty scratch folder `name` under the target's test temp dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
