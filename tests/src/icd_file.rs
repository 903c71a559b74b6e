//! The `fpgacl.icd` file through which the ICD loader finds `libfpgacl.so`.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::locate::{fpgacl_lib, profile_dir};

/// Write `<dir>/fpgacl.icd` containing the absolute path of `lib` (the
/// format the Khronos and ocl-icd loaders read: one library path per file).
/// Written to a temporary name and renamed, so concurrent writers never
/// leave a torn file. Returns the file's path.
pub fn write_icd_file(dir: &Path, lib: &Path) -> io::Result<PathBuf> {
    if !lib.is_absolute() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("ICD library path must be absolute: {}", lib.display()),
        ));
    }
    std::fs::create_dir_all(dir)?;
    let file = dir.join("fpgacl.icd");
    let tmp = dir.join(format!(".fpgacl.icd.{}", std::process::id()));
    std::fs::write(&tmp, format!("{}\n", lib.display()))?;
    std::fs::rename(&tmp, &file)?;
    Ok(file)
}

/// A vendors directory holding only `fpgacl.icd`, pointing at the freshly
/// built library: `<target>/<profile>/vendors`. Pass it as
/// `OCL_ICD_VENDORS` to make the ICD loader see fpgacl and nothing else.
pub fn vendors_dir() -> PathBuf {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let result = DIR.get_or_init(|| {
        let dir = profile_dir().join("vendors");
        let lib = fpgacl_lib();
        write_icd_file(&dir, &lib)
            .map(|_| dir.clone())
            .map_err(|e| format!("cannot write {}/fpgacl.icd: {e}", dir.display()))
    });
    match result {
        Ok(dir) => dir.clone(),
        Err(msg) => panic!("{msg}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icd_file_holds_the_absolute_library_path() {
        let dir = std::env::temp_dir().join(format!("fpgacl-icd-file-{}", std::process::id()));
        let file = write_icd_file(&dir, Path::new("/opt/x/libfpgacl.so")).expect("write");
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "/opt/x/libfpgacl.so\n"
        );
        assert!(write_icd_file(&dir, Path::new("relative/libfpgacl.so")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
