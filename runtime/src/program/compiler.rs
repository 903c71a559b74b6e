//! The one place the runtime calls the OpenCL C compiler and the `.aocx` container
//! (`fpgacl_kernel_compiler::build`, `build_with` and `aocx::{write, read}`).

use std::sync::Arc;

use fpgacl_kernel_compiler::aocx::{self, Aocx};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::options::BuildOptions;
use fpgacl_kernel_compiler::{BuildError, FileId, SourceFile};

/// Result of a build: the module (None when the build failed) and the build log.
pub struct Built {
    pub module: Option<Arc<Module>>,
    pub log: String,
}

/// Why a build could not even start.
#[derive(Debug)]
pub enum BuildFailure {
    /// Unknown or malformed options (`CL_INVALID_BUILD_OPTIONS`), with a message.
    InvalidOptions(String),
}

impl From<BuildError> for BuildFailure {
    fn from(e: BuildError) -> Self {
        match e {
            BuildError::InvalidOptions(m) => BuildFailure::InvalidOptions(m),
        }
    }
}

/// Compiles `sources` with `options` (`#include` resolved on disk).
pub fn build(sources: &[SourceFile], options: &str) -> Result<Built, BuildFailure> {
    let out = fpgacl_kernel_compiler::build(sources, options)?;
    Ok(Built {
        module: out.module,
        log: out.log,
    })
}

/// Serialises a built program into an `.aocx` binary: its sources (with every included
/// file) and options, from which [`read_binary`] rebuilds it.
pub fn write_binary(module: &Module, options: &str, board: &str) -> Vec<u8> {
    let main = if module.sources.files.is_empty() {
        Vec::new()
    } else {
        vec![FileId(0)]
    };
    aocx::write(&Aocx::new(
        options,
        board,
        module.sources.clone(),
        main,
        Vec::new(),
    ))
}

/// Reads an `.aocx` binary and rebuilds its program; `Err` with a message if the bytes are
/// not a valid `.aocx` or the program in it does not build.
pub fn read_binary(bytes: &[u8]) -> Result<(Arc<Module>, String), String> {
    let a = aocx::read(bytes).map_err(|e| e.to_string())?;
    let include_dirs = BuildOptions::parse(&a.options)
        .map(|o| o.include_dirs)
        .unwrap_or_default();
    let resolver = a.resolver(include_dirs);
    let mains: Vec<SourceFile> = a
        .main_files
        .iter()
        .filter_map(|id| a.sources.file(*id).cloned())
        .collect();
    if mains.is_empty() {
        return Err("the .aocx file holds no program source".into());
    }
    let out = fpgacl_kernel_compiler::build_with(&mains, &a.options, &resolver)
        .map_err(|e| e.to_string())?;
    match out.module {
        Some(m) => Ok((m, a.options)),
        None => Err(format!(
            "the program in the .aocx file does not build:\n{}",
            out.log
        )),
    }
}
