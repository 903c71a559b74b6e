//! The one place the runtime calls the OpenCL C compiler, the linker and the `.aocx` container
//! (`fpgacl_kernel_compiler::build`, `build_with`, `link::{compile, link}` and
//! `aocx::{write, read}`).

use std::sync::Arc;

use fpgacl_kernel_compiler::aocx::{self, Aocx, BinaryKind};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::link::{self, LinkError, Object, ObjectKind};
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

/// Result of `clCompileProgram`: the object (None when the unit has errors) and the log.
pub struct Compiled {
    pub object: Option<Arc<Object>>,
    pub log: String,
}

/// Compiles one unit with its own options and embedded headers (`clCompileProgram`).
pub fn compile(
    sources: &[SourceFile],
    options: &str,
    headers: &[SourceFile],
) -> Result<Compiled, BuildFailure> {
    let out = link::compile(sources, options, headers)?;
    Ok(Compiled {
        object: out.object,
        log: out.log,
    })
}

/// Result of `clLinkProgram`: the executable (None for a library or a failed link), the units
/// of the result (None when the link failed) and the log.
pub struct Linked {
    pub module: Option<Arc<Module>>,
    pub object: Option<Arc<Object>>,
    pub log: String,
}

/// Links objects and libraries by symbol (`clLinkProgram`); `Err` with a message for invalid
/// link options.
pub fn link(inputs: &[&Object], options: &str) -> Result<Linked, String> {
    match link::link(inputs, options) {
        Ok(out) => Ok(Linked {
            module: out.module,
            object: out.object,
            log: out.log,
        }),
        Err(e @ (LinkError::InvalidOptions(_) | LinkError::NoInputs)) => Err(e.to_string()),
    }
}

/// Serialises a program built from source into an `.aocx` binary: its sources (with every
/// included file) and options, from which [`read_binary`] rebuilds it.
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

/// Serialises a compiled object, a library or a linked executable (`executable`) into an
/// `.aocx` binary: its units, each with its own options and preprocessed tokens, and the
/// options of the program (compile options of an object, link options otherwise).
pub fn write_units_binary(
    object: &Object,
    executable: bool,
    options: &str,
    board: &str,
) -> Vec<u8> {
    let kind = match (executable, object.kind) {
        (true, _) => BinaryKind::Executable,
        (false, ObjectKind::Object) => BinaryKind::Object,
        (false, ObjectKind::Library) => BinaryKind::Library,
    };
    aocx::write(&Aocx::with_units(
        kind,
        options,
        board,
        object.units.clone(),
    ))
}

/// What an `.aocx` binary holds.
pub enum Loaded {
    /// An executable (rebuilt from its sources or linked again from its units).
    Executable {
        module: Arc<Module>,
        options: String,
        /// The units of a linked executable.
        object: Option<Arc<Object>>,
    },
    /// A compiled object or a library.
    Object {
        object: Arc<Object>,
        options: String,
    },
}

/// Reads an `.aocx` binary; an executable is rebuilt (or linked again). `Err` with a message
/// if the bytes are not a valid `.aocx` or the program in it does not build.
pub fn read_binary(bytes: &[u8]) -> Result<Loaded, String> {
    let a = if aocx::intel::looks_like_elf(bytes) {
        read_intel_binary(bytes)?
    } else {
        aocx::read(bytes).map_err(|e| e.to_string())?
    };
    match a.kind {
        BinaryKind::Object | BinaryKind::Library => {
            let kind = if a.kind == BinaryKind::Object {
                ObjectKind::Object
            } else {
                ObjectKind::Library
            };
            return Ok(Loaded::Object {
                object: Arc::new(Object {
                    kind,
                    units: a.units,
                }),
                options: a.options,
            });
        }
        BinaryKind::Executable if !a.units.is_empty() => {
            let object = Arc::new(Object {
                kind: ObjectKind::Object,
                units: a.units,
            });
            let out = link::link(&[object.as_ref()], &a.options).map_err(|e| e.to_string())?;
            return match out.module {
                Some(module) => Ok(Loaded::Executable {
                    module,
                    options: a.options,
                    object: Some(object),
                }),
                None => Err(format!(
                    "the program in the .aocx file does not link:\n{}",
                    out.log
                )),
            };
        }
        BinaryKind::Executable => {}
    }
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
        Some(module) => Ok(Loaded::Executable {
            module,
            options: a.options,
            object: None,
        }),
        None => Err(format!(
            "the program in the .aocx file does not build:\n{}",
            out.log
        )),
    }
}

/// An `.aocx` built by Intel's `aoc` (ELF): its stored OpenCL source, rebuilt with the `aoc`
/// flags it was built with. Says so on stderr once per distinct binary.
fn read_intel_binary(bytes: &[u8]) -> Result<Aocx, String> {
    static SAID: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());
    let intel = aocx::intel::read(bytes).map_err(|e| format!("Intel-built .aocx: {e}"))?;
    let crc = fnv1a(bytes);
    let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
    if !said.contains(&crc) {
        said.push(crc);
        let main = intel
            .aocx
            .main_files
            .first()
            .and_then(|f| intel.aocx.sources.file(*f))
            .map_or("?", |f| f.name.as_str())
            .to_string();
        let mut msg = format!(
            "fpgacl: this .aocx was built by Intel's aoc{}; fpgacl cannot run its image and \
             rebuilds its OpenCL source instead ({main}, {} file(s)) with options '{}'",
            intel
                .board
                .as_deref()
                .map(|b| format!(" for board {b}"))
                .unwrap_or_default(),
            intel.aocx.sources.files.len(),
            intel.aocx.options
        );
        if !intel.ignored.is_empty() {
            msg.push_str(&format!(
                " (aoc flags not used: {})",
                intel.ignored.join(" ")
            ));
        }
        eprintln!("{msg}");
    }
    Ok(intel.aocx)
}

/// FNV-1a hash of `bytes`: tells binaries apart for the once-only message.
fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}
