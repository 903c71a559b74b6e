//! Compiling a C example with gcc, against the ICD loader or libfpgacl directly.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::examples::{c_dir, kernels_dir, Example};

/// How the compiled program reaches an OpenCL implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Linkage {
    /// `-lOpenCL`: the system ICD loader, which picks implementations from
    /// `OCL_ICD_VENDORS` or `/etc/OpenCL/vendors`.
    IcdLoader,
    /// `-L<lib_dir> -lfpgacl -Wl,-rpath,<lib_dir>`: `libfpgacl.so` directly,
    /// without any loader.
    Direct {
        /// Directory that holds `libfpgacl.so`.
        lib_dir: PathBuf,
    },
}

impl Linkage {
    /// Short label, used for output sub-directories and messages.
    pub fn label(&self) -> &'static str {
        match self {
            Linkage::IcdLoader => "icd",
            Linkage::Direct { .. } => "direct",
        }
    }
}

/// Why an example could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The C source file does not exist.
    #[error("example source {0} does not exist")]
    MissingSource(PathBuf),
    /// Direct linking was asked for but `libfpgacl.so` is not in the directory.
    #[error("libfpgacl.so not found in {0} (build it with `cargo build -p fpgacl-icd`)")]
    MissingLibrary(PathBuf),
    /// The output directory could not be created.
    #[error("cannot create output directory {path}: {source}")]
    OutputDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The compiler could not be started (not installed?).
    #[error("cannot run C compiler `{cc}`: {source} (install gcc: scripts/setup.sh)")]
    Spawn {
        /// The compiler command.
        cc: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The compiler ran and failed.
    #[error("compiling {source_file} failed ({status}):\n$ {command}\n{stderr}")]
    Failed {
        /// The source being compiled.
        source_file: PathBuf,
        /// Exit status description.
        status: String,
        /// The full command line, for reproduction.
        command: String,
        /// The compiler's diagnostics.
        stderr: String,
    },
    /// The compiled binary could not be moved into place.
    #[error("cannot move {from} to {to}: {source}")]
    Rename {
        /// Temporary output.
        from: PathBuf,
        /// Final output.
        to: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// A C compiler invocation for the examples: the compiler (`$CC` or `gcc`)
/// and any extra flags.
#[derive(Debug, Clone)]
pub struct Compiler {
    cc: String,
    extra_flags: Vec<String>,
}

impl Default for Compiler {
    fn default() -> Self {
        Self::new()
    }
}

impl Compiler {
    /// The compiler named by `$CC`, or `gcc`.
    pub fn new() -> Self {
        let cc = std::env::var("CC").ok().filter(|s| !s.trim().is_empty());
        Compiler {
            cc: cc.unwrap_or_else(|| "gcc".to_string()),
            extra_flags: Vec::new(),
        }
    }

    /// Add a compiler flag (for example `-Werror`).
    pub fn flag(mut self, flag: impl Into<String>) -> Self {
        self.extra_flags.push(flag.into());
        self
    }

    /// Compile `example` into `out_dir/<name>` and return the binary's path.
    pub fn compile(
        &self,
        example: &Example,
        out_dir: &Path,
        linkage: &Linkage,
    ) -> Result<PathBuf, CompileError> {
        self.compile_source(&example.source_path(), example.name, out_dir, linkage)
    }

    /// Compile any C source (that may include `common.h`) into `out_dir/<name>`.
    pub fn compile_source(
        &self,
        source: &Path,
        name: &str,
        out_dir: &Path,
        linkage: &Linkage,
    ) -> Result<PathBuf, CompileError> {
        if !source.is_file() {
            return Err(CompileError::MissingSource(source.to_path_buf()));
        }
        if let Linkage::Direct { lib_dir } = linkage {
            if !lib_dir.join("libfpgacl.so").is_file() {
                return Err(CompileError::MissingLibrary(lib_dir.clone()));
            }
        }
        std::fs::create_dir_all(out_dir).map_err(|source| CompileError::OutputDir {
            path: out_dir.to_path_buf(),
            source,
        })?;
        let out = out_dir.join(name);
        // Build under a unique name and rename, so concurrent builds of the
        // same example never see a half-written binary.
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let tmp = out_dir.join(format!(
            ".{name}.tmp.{}.{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let args = self.args(source, &tmp, linkage);
        let output = Command::new(&self.cc)
            .args(&args)
            .output()
            .map_err(|source| CompileError::Spawn {
                cc: self.cc.clone(),
                source,
            })?;
        if !output.status.success() {
            let _ = std::fs::remove_file(&tmp);
            let command = std::iter::once(OsString::from(&self.cc))
                .chain(args)
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" ");
            return Err(CompileError::Failed {
                source_file: source.to_path_buf(),
                status: output.status.to_string(),
                command,
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            });
        }
        std::fs::rename(&tmp, &out).map_err(|source| CompileError::Rename {
            from: tmp.clone(),
            to: out.clone(),
            source,
        })?;
        Ok(out)
    }

    fn args(&self, source: &Path, out: &Path, linkage: &Linkage) -> Vec<OsString> {
        let mut a: Vec<OsString> = ["-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-pthread"]
            .iter()
            .map(OsString::from)
            .collect();
        a.push(format!("-I{}", c_dir().display()).into());
        a.push("-I/usr/include".into());
        a.push(format!("-DFPGACL_KERNELS_DIR=\"{}\"", kernels_dir().display()).into());
        a.extend(self.extra_flags.iter().map(OsString::from));
        a.push(source.into());
        a.push("-o".into());
        a.push(out.into());
        match linkage {
            Linkage::IcdLoader => a.push("-lOpenCL".into()),
            Linkage::Direct { lib_dir } => {
                a.push(format!("-L{}", lib_dir.display()).into());
                a.push("-lfpgacl".into());
                a.push(format!("-Wl,-rpath,{}", lib_dir.display()).into());
            }
        }
        a.push("-lm".into());
        a
    }
}

/// Compile `example` with the default [`Compiler`] into `out_dir/<name>`.
pub fn compile(
    example: &Example,
    out_dir: &Path,
    linkage: &Linkage,
) -> Result<PathBuf, CompileError> {
    Compiler::new().compile(example, out_dir, linkage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples::EXAMPLES;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "fpgacl-host-examples-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        dir
    }

    fn have_gcc_and_loader() -> bool {
        Command::new("gcc")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
            && Path::new("/usr/include/CL/cl.h").is_file()
    }

    /// Every example compiles warning-free against the system headers and ICD
    /// loader (no OpenCL implementation needed to compile).
    #[test]
    fn every_example_compiles_without_warnings_against_the_icd_loader() {
        if !have_gcc_and_loader() {
            panic!("gcc or /usr/include/CL/cl.h missing: run scripts/setup.sh");
        }
        let dir = scratch("icd");
        for e in EXAMPLES {
            let bin = Compiler::new()
                .flag("-Werror")
                .compile(e, &dir, &Linkage::IcdLoader)
                .unwrap_or_else(|err| panic!("{}: {err}", e.name));
            assert!(bin.is_file(), "{} not produced", bin.display());
        }
        for tool in crate::TOOL_SOURCES {
            let name = tool.trim_end_matches(".c");
            Compiler::new()
                .flag("-Werror")
                .compile_source(&c_dir().join(tool), name, &dir, &Linkage::IcdLoader)
                .unwrap_or_else(|err| panic!("{tool}: {err}"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_library_is_reported() {
        let dir = scratch("nolib");
        let err = compile(
            &EXAMPLES[0],
            &dir,
            &Linkage::Direct {
                lib_dir: dir.clone(),
            },
        )
        .expect_err("must fail without libfpgacl.so");
        assert!(matches!(err, CompileError::MissingLibrary(_)), "{err}");
        assert!(err.to_string().contains("libfpgacl.so not found"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn compiler_errors_carry_the_command_and_diagnostics() {
        if !have_gcc_and_loader() {
            panic!("gcc missing: run scripts/setup.sh");
        }
        let dir = scratch("bad");
        let src = dir.join("broken.c");
        std::fs::write(&src, "int main(void) { return undefined_symbol_xyz; }\n").expect("write");
        let err = Compiler::new()
            .compile_source(&src, "broken", &dir, &Linkage::IcdLoader)
            .expect_err("must fail");
        let msg = err.to_string();
        assert!(msg.contains("undefined_symbol_xyz"), "{msg}");
        assert!(msg.contains("-lOpenCL"), "{msg}");
        assert!(!dir.join("broken").exists(), "no binary on failure");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_source_is_reported() {
        let dir = scratch("nosrc");
        let err = Compiler::new()
            .compile_source(&dir.join("nope.c"), "nope", &dir, &Linkage::IcdLoader)
            .expect_err("must fail");
        assert!(matches!(err, CompileError::MissingSource(_)), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
