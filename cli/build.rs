//! Puts `aoc` and `aocl` next to the `fpgacl` binary (`target/<profile>/aoc -> fpgacl`):
//! the binary answers to those names, so a project that calls Intel's `aoc`/`aocl` only needs
//! `target/<profile>` on its PATH. (`fpgacl sdk-root` makes the same links in `<sdk>/bin`.)

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let Some(out) = std::env::var_os("OUT_DIR") else {
        return;
    };
    // OUT_DIR is <target>/<profile>/build/<crate>-<hash>/out.
    let Some(profile_dir) = std::path::Path::new(&out).ancestors().nth(3) else {
        return;
    };
    for name in ["aoc", "aocl"] {
        let link = profile_dir.join(name);
        if std::fs::read_link(&link).is_ok() {
            continue;
        }
        // Best effort: a failure here must not fail the build.
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink("fpgacl", &link);
    }
}
