//! The one place the runtime calls the OpenCL C compiler and the `.aocx` container.
//!
//! The compiler crate's entry points (`fpgacl_kernel_compiler::build` and
//! `fpgacl_kernel_compiler::aocx::{write, read}`) are being written in parallel; until they
//! exist, builds fail with an explanatory build log and binaries are rejected. Only this file
//! changes when they land.

use std::sync::Arc;

use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::SourceFile;

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

/// Whether a real compiler is linked in (reported by `clGetDeviceInfo` as available either
/// way, since a failed build has a log).
pub const COMPILER_LINKED: bool = false;

/// Compiles `sources` with `options`.
pub fn build(sources: &[SourceFile], options: &str) -> Result<Built, BuildFailure> {
    let _ = (sources, options);
    Ok(Built {
        module: None,
        log: "fpgacl: the OpenCL C compiler is not linked into this build yet; \
              programs cannot be built\n"
            .to_string(),
    })
}

/// Serialises a built program into an `.aocx` binary.
pub fn write_binary(module: &Module, options: &str) -> Vec<u8> {
    let _ = (module, options);
    Vec::new()
}

/// Reads an `.aocx` binary; `None` if it is not one.
pub fn read_binary(bytes: &[u8]) -> Option<(Arc<Module>, String)> {
    let _ = bytes;
    None
}
