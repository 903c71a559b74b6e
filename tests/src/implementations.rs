//! The OpenCL implementations a host program can be run on: fpgacl (through
//! the ICD loader, `OCL_ICD_VENDORS` -> the freshly built `fpgacl.icd`), and
//! the installed references PoCL and Oclgrind, each selected alone the same
//! way.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::icd_file::vendors_dir;
use crate::locate::profile_dir;

/// An OpenCL implementation to run a host program on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Implementation {
    /// This project's `libfpgacl.so`.
    Fpgacl,
    /// PoCL (Debian package `pocl-opencl-icd`).
    Pocl,
    /// Oclgrind (Debian package `oclgrind`; its ICD library is not registered
    /// in `/etc/OpenCL/vendors` by the package, so a vendors directory is
    /// written for it).
    Oclgrind,
}

impl Implementation {
    /// All implementations, fpgacl first.
    pub const ALL: [Implementation; 3] = [
        Implementation::Fpgacl,
        Implementation::Pocl,
        Implementation::Oclgrind,
    ];

    /// Short lower-case label.
    pub fn label(self) -> &'static str {
        match self {
            Implementation::Fpgacl => "fpgacl",
            Implementation::Pocl => "pocl",
            Implementation::Oclgrind => "oclgrind",
        }
    }

    /// The `HOST_PLATFORM` substring that selects it (`None`: the host
    /// programs' default, the Intel FPGA platform name fpgacl reports).
    pub fn platform_substring(self) -> Option<&'static str> {
        match self {
            Implementation::Fpgacl => None,
            Implementation::Pocl => Some("Portable Computing Language"),
            Implementation::Oclgrind => Some("Oclgrind"),
        }
    }

    /// The value for `OCL_ICD_VENDORS` that makes the ICD loader see only
    /// this implementation, or why it is not available. For fpgacl this
    /// builds `libfpgacl.so` (and panics with the build errors if it fails).
    pub fn vendors(self) -> Result<PathBuf, String> {
        match self {
            Implementation::Fpgacl => Ok(vendors_dir()),
            Implementation::Pocl => pocl_icd_file().ok_or_else(|| {
                "PoCL is not installed (no pocl .icd in /etc/OpenCL/vendors): \
                 apt-get install pocl-opencl-icd (scripts/setup.sh)"
                    .to_string()
            }),
            Implementation::Oclgrind => oclgrind_vendors_dir(),
        }
    }

    /// Set the environment of `cmd` so the host program runs on this
    /// implementation. `cmd` should come from [`crate::hermetic_command`].
    pub fn configure(self, cmd: &mut Command) -> Result<(), String> {
        cmd.env("OCL_ICD_VENDORS", self.vendors()?);
        match self.platform_substring() {
            Some(p) => cmd.env("HOST_PLATFORM", p),
            None => cmd.env_remove("HOST_PLATFORM"),
        };
        Ok(())
    }
}

/// Set (non-empty, not `0`) to make the tests behave as if PoCL were not
/// installed (to exercise the recorded-reference path).
pub const NO_POCL_ENV: &str = "FPGACL_TEST_NO_POCL";

/// The PoCL `.icd` file in `/etc/OpenCL/vendors`, if PoCL is installed (and
/// not hidden by [`NO_POCL_ENV`]).
pub fn pocl_icd_file() -> Option<PathBuf> {
    if std::env::var(NO_POCL_ENV).is_ok_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    std::fs::read_dir("/etc/OpenCL/vendors")
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| std::fs::read_to_string(p).is_ok_and(|text| text.contains("pocl")))
}

/// Where Oclgrind's ICD library may be installed.
const OCLGRIND_ICD_LIBS: &[&str] = &[
    "/usr/lib/oclgrind/liboclgrind-rt-icd.so",
    "/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so",
    "/usr/local/lib/liboclgrind-rt-icd.so",
    "/usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so",
];

/// Oclgrind's ICD library, if installed.
pub fn oclgrind_icd_lib() -> Option<PathBuf> {
    OCLGRIND_ICD_LIBS
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .map(Path::to_path_buf)
}

/// A vendors directory (`<target>/<profile>/oclgrind-vendors`) holding only
/// `oclgrind.icd`, pointing at Oclgrind's ICD library.
pub fn oclgrind_vendors_dir() -> Result<PathBuf, String> {
    let lib = oclgrind_icd_lib().ok_or_else(|| {
        "Oclgrind is not installed (no liboclgrind-rt-icd.so): apt-get install oclgrind \
         (scripts/setup.sh)"
            .to_string()
    })?;
    let dir = profile_dir().join("oclgrind-vendors");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join("oclgrind.icd");
    let tmp = dir.join(format!(".oclgrind.icd.{}", std::process::id()));
    std::fs::write(&tmp, format!("{}\n", lib.display()))
        .and_then(|()| std::fs::rename(&tmp, &file))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_platforms() {
        assert_eq!(Implementation::Pocl.label(), "pocl");
        assert_eq!(Implementation::Fpgacl.platform_substring(), None);
        assert_eq!(
            Implementation::Oclgrind.platform_substring(),
            Some("Oclgrind")
        );
    }

    #[test]
    fn oclgrind_vendors_dir_points_at_the_library_when_installed() {
        match oclgrind_vendors_dir() {
            Ok(dir) => {
                let text = std::fs::read_to_string(dir.join("oclgrind.icd")).expect("read");
                assert!(text.trim().ends_with("liboclgrind-rt-icd.so"), "{text}");
            }
            Err(msg) => assert!(msg.contains("not installed"), "{msg}"),
        }
    }
}
