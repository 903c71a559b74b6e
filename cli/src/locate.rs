//! Finding `libfpgacl.so` and making an ICD vendors folder that selects it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Name of the shared library the ICD loader opens.
pub const LIB_NAME: &str = "libfpgacl.so";

/// The folder holding `libfpgacl.so`: `$FPGACL_LIB_DIR`, else the folder of this executable
/// (cargo puts both in `target/<profile>/`), else its parent (for `target/<profile>/deps`).
pub fn lib_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("FPGACL_LIB_DIR") {
        let dir = PathBuf::from(dir);
        return if dir.join(LIB_NAME).is_file() {
            Ok(dir)
        } else {
            Err(format!(
                "FPGACL_LIB_DIR={} does not contain {LIB_NAME}",
                dir.display()
            ))
        };
    }
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot locate the fpgacl executable: {e}"))?;
    let mut candidates = Vec::new();
    if let Some(dir) = exe.parent() {
        candidates.push(dir.to_path_buf());
        if let Some(up) = dir.parent() {
            candidates.push(up.to_path_buf());
        }
        candidates.push(dir.join("../lib"));
    }
    candidates
        .into_iter()
        .find(|d| d.join(LIB_NAME).is_file())
        .ok_or_else(|| {
            format!(
                "cannot find {LIB_NAME} next to {} (build it with `cargo build --release`, or set FPGACL_LIB_DIR)",
                exe.display()
            )
        })
}

/// Writes `<lib_dir>/vendors/fpgacl.icd` naming the library by absolute path and returns the
/// vendors folder (what `OCL_ICD_VENDORS` should point at).
pub fn vendors_dir(lib_dir: &Path) -> Result<PathBuf, String> {
    let lib = lib_dir
        .join(LIB_NAME)
        .canonicalize()
        .map_err(|e| format!("cannot resolve {}: {e}", lib_dir.join(LIB_NAME).display()))?;
    let vendors = lib_dir.join("vendors");
    std::fs::create_dir_all(&vendors)
        .map_err(|e| format!("cannot create {}: {e}", vendors.display()))?;
    let icd = vendors.join("fpgacl.icd");
    let content = format!("{}\n", lib.display());
    if std::fs::read_to_string(&icd).ok().as_deref() != Some(content.as_str()) {
        std::fs::write(&icd, content)
            .map_err(|e| format!("cannot write {}: {e}", icd.display()))?;
    }
    Ok(vendors)
}

/// `fpgacl info`: where things are.
pub fn print_info() -> Result<ExitCode, String> {
    let dir = lib_dir()?;
    let vendors = vendors_dir(&dir)?;
    println!("library:  {}", dir.join(LIB_NAME).display());
    println!("ICD file: {}", vendors.join("fpgacl.icd").display());
    println!(
        "select it with: export OCL_ICD_VENDORS={}",
        vendors.display()
    );
    Ok(ExitCode::SUCCESS)
}
