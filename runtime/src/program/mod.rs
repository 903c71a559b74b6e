//! Programs: sources or binaries, builds (compile, link), build logs and kernels.

pub mod compiler;
pub mod kernel;
pub mod launch;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use fpgacl_device_model::{ExecConfig, ProgramInstance};
use fpgacl_kernel_compiler::analysis::{self, Report};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::link::{LinkOptions, Object, ObjectKind};
use fpgacl_kernel_compiler::options::has_option;
use fpgacl_kernel_compiler::SourceFile;
use parking_lot::Mutex;

use crate::cl::*;
use crate::context::Context;
use crate::device::Device;
use crate::error::{check, CLResult};
use crate::info::{InfoValue, ObjRef};

pub use kernel::{ArgValue, Kernel};

/// Build state of a program (one device per context here, so one state per program).
#[derive(Clone)]
pub struct BuildState {
    pub status: cl_build_status,
    pub options: String,
    pub log: String,
    pub binary_type: cl_program_binary_type,
    pub module: Option<Arc<Module>>,
    /// The compilation units of a compiled object, a library or a linked executable (what
    /// `clLinkProgram` links and what their binaries keep).
    pub object: Option<Arc<Object>>,
}

/// An OpenCL program.
pub struct Program {
    pub context: Arc<Context>,
    pub devices: Vec<Arc<Device>>,
    /// Source files (one per string given to `clCreateProgramWithSource`, or the inputs of a
    /// link); empty for a program created from a binary.
    pub sources: Vec<SourceFile>,
    state: Mutex<BuildState>,
    building: Mutex<()>,
    /// Number of kernel objects alive (a program with kernels cannot be rebuilt).
    pub(crate) kernels: AtomicUsize,
    /// The executable as loaded on the device.
    instance: Mutex<Option<Arc<ProgramInstance>>>,
    /// Created with `clCreateProgramWithBinary`.
    from_binary: bool,
    /// Static analysis of the loaded executable (for the timing model).
    analysis: Mutex<Option<Arc<Report>>>,
    /// The board the loaded executable runs on: the device's, at the kernel clock the program
    /// was built for (`-clock=<MHz>`, unless `FPGACL_KERNEL_CLOCK_MHZ` overrides it).
    board: Mutex<Option<Arc<fpgacl_device_model::Board>>>,
}

/// The build log of a program created from an executable binary.
pub const BINARY_READY_LOG: &str = "fpgacl: the program was created from an executable binary and \
is ready to run without clBuildProgram (clBuildProgram is accepted and changes nothing)\n";

fn default_state() -> BuildState {
    BuildState {
        status: CL_BUILD_NONE,
        options: String::new(),
        log: String::new(),
        binary_type: CL_PROGRAM_BINARY_TYPE_NONE,
        module: None,
        object: None,
    }
}

impl Program {
    /// `clCreateProgramWithSource`.
    pub fn with_source(context: &Arc<Context>, strings: Vec<String>) -> CLResult<Arc<Self>> {
        check(!strings.is_empty(), CL_INVALID_VALUE)?;
        let sources = strings
            .into_iter()
            .enumerate()
            .map(|(i, text)| SourceFile {
                name: if i == 0 {
                    "<source>".to_string()
                } else {
                    format!("<source {i}>")
                },
                text,
            })
            .collect();
        Ok(Arc::new(Program {
            context: context.clone(),
            devices: context.devices.clone(),
            sources,
            state: Mutex::new(default_state()),
            building: Mutex::new(()),
            kernels: AtomicUsize::new(0),
            instance: Mutex::new(None),
            from_binary: false,
            analysis: Mutex::new(None),
            board: Mutex::new(None),
        }))
    }

    /// `clCreateProgramWithBinary`: one binary per device. Returns the program and the
    /// per-device binary status; any invalid binary fails the call with `CL_INVALID_BINARY`
    /// (the statuses say which).
    pub fn with_binaries(
        context: &Arc<Context>,
        devices: Vec<Arc<Device>>,
        binaries: &[&[u8]],
    ) -> (CLResult<Arc<Self>>, Vec<cl_int>) {
        let mut statuses = Vec::with_capacity(binaries.len());
        let mut loaded = None;
        for b in binaries {
            match compiler::read_binary(b) {
                Ok(l) => {
                    statuses.push(CL_SUCCESS);
                    loaded.get_or_insert(l);
                }
                Err(msg) => {
                    log::warn!("fpgacl: clCreateProgramWithBinary: {msg}");
                    statuses.push(CL_INVALID_BINARY);
                }
            }
        }
        if statuses.iter().any(|s| *s != CL_SUCCESS) {
            return (Err(CL_INVALID_BINARY), statuses);
        }
        let Some(loaded) = loaded else {
            return (Err(CL_INVALID_VALUE), statuses);
        };
        let (state, sources) = match loaded {
            compiler::Loaded::Executable {
                module,
                options,
                object,
            } => {
                let sources = match &object {
                    Some(o) => unit_sources(o),
                    // The main file (includes are not part of CL_PROGRAM_SOURCE).
                    None => module.sources.files.iter().take(1).cloned().collect(),
                };
                let state = BuildState {
                    status: CL_BUILD_NONE,
                    options,
                    log: String::new(),
                    binary_type: CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                    module: Some(module),
                    object,
                };
                (state, sources)
            }
            compiler::Loaded::Object { object, options } => {
                let binary_type = match object.kind {
                    ObjectKind::Object => CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
                    ObjectKind::Library => CL_PROGRAM_BINARY_TYPE_LIBRARY,
                };
                let sources = unit_sources(&object);
                let state = BuildState {
                    status: CL_BUILD_NONE,
                    options,
                    log: String::new(),
                    binary_type,
                    module: None,
                    object: Some(object),
                };
                (state, sources)
            }
        };
        let prog = Program {
            context: context.clone(),
            devices,
            sources,
            state: Mutex::new(state),
            building: Mutex::new(()),
            kernels: AtomicUsize::new(0),
            instance: Mutex::new(None),
            from_binary: true,
            analysis: Mutex::new(None),
            board: Mutex::new(None),
        };
        let prog = Arc::new(prog);
        prog.load_executable_binary();
        (Ok(prog), statuses)
    }

    /// A program created from an executable binary is an executable at once, as Intel's FPGA
    /// runtime has it (hosts create kernels without calling `clBuildProgram`): the executable
    /// is loaded on the device now and the build status is `CL_BUILD_SUCCESS`, with a log that
    /// says so. A later `clBuildProgram` is accepted. If loading fails, the status stays
    /// `CL_BUILD_NONE` and `clBuildProgram` reports why.
    fn load_executable_binary(&self) {
        let (module, options) = {
            let st = self.state.lock();
            if st.binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE {
                return;
            }
            (st.module.clone(), st.options.clone())
        };
        let Some(module) = module else { return };
        let loaded = self.load(&module, &options);
        let mut st = self.state.lock();
        match loaded {
            Ok(()) => {
                st.status = CL_BUILD_SUCCESS;
                st.log = BINARY_READY_LOG.to_string();
            }
            Err(msg) => {
                st.log = format!("the executable binary could not be loaded: {msg}\n");
            }
        }
    }

    /// The program as loaded on its device (after a successful build).
    pub fn instance(&self) -> Option<Arc<ProgramInstance>> {
        self.instance.lock().clone()
    }

    /// Loads an executable module on the device (starting its autorun kernels), replacing
    /// any earlier one. Returns the loader's message on failure.
    fn load(&self, module: &Arc<Module>, options: &str) -> Result<(), String> {
        let dev = self.devices.first().ok_or("no device")?;
        // `-clock=<MHz>` (kept in the binary's options) sets the program's kernel clock.
        let board = Arc::new(crate::board::program_board(&dev.board, options));
        // Without a report kernels still run, only untimed (START = END).
        let params = board.analysis_params();
        let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            analysis::analyze(module, &params)
        }))
        .ok()
        .map(Arc::new);
        let config = ExecConfig {
            activity: Some(dev.activity.clone()),
            report: report.clone(),
            ..Default::default()
        };
        let inst =
            ProgramInstance::new(module.clone(), &board, config).map_err(|e| e.to_string())?;
        let inst = Arc::new(inst);
        *self.analysis.lock() = report;
        crate::profiling::program_loaded(&inst, dev, &board);
        *self.board.lock() = Some(board);
        self.context.add_instance(&inst);
        if let Some(old) = self.instance.lock().replace(inst) {
            self.context.remove_instance(&old);
        }
        Ok(())
    }

    /// The board the loaded executable runs on (the device's at the program's `-clock`);
    /// `dev`'s board before a load.
    pub fn board(&self, dev: &crate::device::Device) -> Arc<fpgacl_device_model::Board> {
        self.board
            .lock()
            .clone()
            .unwrap_or_else(|| Arc::new(dev.board.clone()))
    }

    /// Static analysis of the loaded executable.
    pub fn analysis(&self) -> Option<Arc<Report>> {
        self.analysis.lock().clone()
    }

    /// Whether `clGetKernelArgInfo` may answer: the executable was built with
    /// `-cl-kernel-arg-info` (OpenCL 1.2, 5.7.3).
    pub fn has_kernel_arg_info(&self) -> bool {
        const OPT: &str = "-cl-kernel-arg-info";
        let st = self.state.lock();
        has_option(&st.options, OPT) || st.object.as_ref().is_some_and(|o| o.has_option(OPT))
    }

    /// Current build state.
    pub fn state(&self) -> BuildState {
        self.state.lock().clone()
    }

    /// The built module, if the program has a successfully built executable (a program
    /// created from a binary has one only after `clBuildProgram`).
    pub fn module(&self) -> Option<Arc<Module>> {
        let st = self.state.lock();
        if st.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && st.status == CL_BUILD_SUCCESS {
            st.module.clone()
        } else {
            None
        }
    }

    /// Checks that `devices` (from a device list argument) belong to the program.
    pub fn check_devices(&self, devices: &[Arc<Device>]) -> CLResult<()> {
        for d in devices {
            check(
                self.devices.iter().any(|p| p.index == d.index),
                CL_INVALID_DEVICE,
            )?;
        }
        Ok(())
    }

    fn begin_build(&self) -> CLResult<parking_lot::MutexGuard<'_, ()>> {
        if self.kernels.load(Ordering::SeqCst) > 0 {
            return Err(CL_INVALID_OPERATION);
        }
        self.building.try_lock().ok_or(CL_INVALID_OPERATION)
    }

    fn run_compiler(&self, options: &str) -> Result<compiler::Built, String> {
        launch::check_memory_type(options, &self.devices)?;
        compiler::build(&self.sources, options).map_err(|e| match e {
            compiler::BuildFailure::InvalidOptions(msg) => msg,
        })
    }

    /// `clBuildProgram`.
    pub fn build(&self, options: &str) -> CLResult<()> {
        let _guard = self.begin_build()?;
        let options = options.to_string();
        if self.from_binary {
            // The binary holds the executable: building loads it. A compiled object or a
            // library is linked into an executable first.
            let (mut module, object, binary_type) = {
                let st = self.state.lock();
                if st.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                    && st.status == CL_BUILD_SUCCESS
                    && self.instance.lock().is_some()
                {
                    // Loaded when it was created: nothing to build.
                    return Ok(());
                }
                (st.module.clone(), st.object.clone(), st.binary_type)
            };
            let mut linked_log = None;
            if binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE {
                if let Some(o) = &object {
                    match compiler::link(&[o.as_ref()], "") {
                        Ok(l) => {
                            module = l.module;
                            linked_log = Some((l.log, l.object));
                        }
                        Err(msg) => linked_log = Some((msg, None)),
                    }
                }
            }
            let loaded = match &module {
                Some(m) => {
                    let opts = self.state.lock().options.clone();
                    self.load(m, &opts)
                }
                None => Err(match &linked_log {
                    Some((log, _)) => log.trim_end().to_string(),
                    None => "the program has no executable".to_string(),
                }),
            };
            let mut st = self.state.lock();
            return match loaded {
                Ok(()) => {
                    st.status = CL_BUILD_SUCCESS;
                    st.log = String::new();
                    if let Some((log, linked)) = linked_log {
                        st.log = log;
                        st.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
                        st.module = module;
                        st.object = linked;
                    }
                    Ok(())
                }
                Err(msg) => {
                    st.status = CL_BUILD_ERROR;
                    st.log = format!("{msg}\n");
                    Err(CL_BUILD_PROGRAM_FAILURE)
                }
            };
        }
        let prev_status = std::mem::replace(&mut self.state.lock().status, CL_BUILD_IN_PROGRESS);
        let built = self.run_compiler(&options);
        let loaded = match &built {
            Ok(compiler::Built {
                module: Some(m), ..
            }) => Some(self.load(m, &options)),
            _ => None,
        };
        let mut st = self.state.lock();
        match built {
            Err(msg) => {
                // Invalid options are an argument error: the program keeps what it had (its
                // executable, status and options); only the log says why.
                st.status = prev_status;
                st.log = format!("invalid build options: {msg}\n");
                Err(CL_INVALID_BUILD_OPTIONS)
            }
            Ok(b) => {
                st.options = options;
                st.log = b.log;
                match (b.module, loaded) {
                    (Some(m), Some(Ok(()))) => {
                        // What the static analysis had to give up on (capped unrolls, ...)
                        // belongs in the build log too.
                        if let Some(r) = self.analysis() {
                            for k in &r.kernels {
                                for w in &k.warnings {
                                    st.log
                                        .push_str(&format!("warning: kernel '{}': {w}\n", k.name));
                                }
                            }
                        }
                        st.status = CL_BUILD_SUCCESS;
                        st.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
                        st.module = Some(m);
                        st.object = None;
                        Ok(())
                    }
                    (_, loaded) => {
                        if let Some(Err(msg)) = loaded {
                            st.log.push_str(&msg);
                            st.log.push('\n');
                        }
                        st.status = CL_BUILD_ERROR;
                        st.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
                        st.module = None;
                        st.object = None;
                        Err(CL_BUILD_PROGRAM_FAILURE)
                    }
                }
            }
        }
    }

    /// `clCompileProgram`: compiles the program's source as one unit with its own options
    /// and the embedded headers (`#include "name"` finds them by `header_include_names`),
    /// and keeps the compiled object for `clLinkProgram`.
    pub fn compile(&self, options: &str, headers: Vec<SourceFile>) -> CLResult<()> {
        let _guard = self.begin_build()?;
        check(
            !self.sources.is_empty() && !self.from_binary,
            CL_INVALID_OPERATION,
        )?;
        let prev_status = std::mem::replace(&mut self.state.lock().status, CL_BUILD_IN_PROGRESS);
        let compiled = compiler::compile(&self.sources, options, &headers);
        let mut st = self.state.lock();
        match compiled {
            Err(compiler::BuildFailure::InvalidOptions(msg)) => {
                // An argument error: a previously compiled object stays usable for linking.
                st.status = prev_status;
                st.log = format!("invalid compiler options: {msg}\n");
                Err(CL_INVALID_COMPILER_OPTIONS)
            }
            Ok(c) => {
                st.options = options.to_string();
                st.log = c.log;
                st.module = None;
                match c.object {
                    Some(o) => {
                        st.status = CL_BUILD_SUCCESS;
                        st.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
                        st.object = Some(o);
                        Ok(())
                    }
                    None => {
                        st.status = CL_BUILD_ERROR;
                        st.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
                        st.object = None;
                        Err(CL_COMPILE_PROGRAM_FAILURE)
                    }
                }
            }
        }
    }

    /// `clLinkProgram`: a new program linked by symbol from compiled objects and libraries
    /// (an executable, or a library with `-create-library`). Returns the program even when
    /// linking fails (with its log), and the error.
    pub fn link(
        context: &Arc<Context>,
        devices: Vec<Arc<Device>>,
        options: &str,
        inputs: &[Arc<Program>],
    ) -> CLResult<(Arc<Program>, CLResult<()>)> {
        check(!inputs.is_empty(), CL_INVALID_VALUE)?;
        let lopts = LinkOptions::parse(options).map_err(|_| CL_INVALID_LINKER_OPTIONS)?;
        let mut objects = Vec::with_capacity(inputs.len());
        for p in inputs {
            check(Arc::ptr_eq(&p.context, context), CL_INVALID_CONTEXT)?;
            let st = p.state.lock();
            let object = match (&st.object, st.binary_type) {
                (
                    Some(o),
                    CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT | CL_PROGRAM_BINARY_TYPE_LIBRARY,
                ) => o.clone(),
                _ => return Err(CL_INVALID_OPERATION),
            };
            objects.push(object);
        }
        let refs: Vec<&Object> = objects.iter().map(|o| o.as_ref()).collect();
        let linked = compiler::link(&refs, options).map_err(|_| CL_INVALID_LINKER_OPTIONS)?;
        let sources = objects.iter().flat_map(|o| unit_sources(o)).collect();
        let prog = Arc::new(Program {
            context: context.clone(),
            devices,
            sources,
            state: Mutex::new(default_state()),
            building: Mutex::new(()),
            kernels: AtomicUsize::new(0),
            instance: Mutex::new(None),
            from_binary: false,
            analysis: Mutex::new(None),
            board: Mutex::new(None),
        });
        let loaded = match &linked.module {
            Some(m) if !lopts.create_library => Some(prog.load(m, options)),
            _ => None,
        };
        let result = {
            let mut st = prog.state.lock();
            st.options = options.to_string();
            st.log = linked.log;
            match (linked.object, loaded) {
                (Some(o), None) if lopts.create_library => {
                    st.status = CL_BUILD_SUCCESS;
                    st.binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
                    st.object = Some(o);
                    Ok(())
                }
                (Some(o), Some(Ok(()))) => {
                    st.status = CL_BUILD_SUCCESS;
                    st.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
                    st.module = linked.module;
                    st.object = Some(o);
                    Ok(())
                }
                (_, loaded) => {
                    if let Some(Err(msg)) = loaded {
                        st.log.push_str(&msg);
                        st.log.push('\n');
                    }
                    st.status = CL_BUILD_ERROR;
                    Err(CL_LINK_PROGRAM_FAILURE)
                }
            }
        };
        Ok((prog, result))
    }

    /// The `.aocx` bytes of an executable program (empty otherwise).
    pub fn binary(&self) -> Vec<u8> {
        let st = self.state.lock();
        let board = self.devices.first().map_or("", |d| d.board.name.as_str());
        let executable = st.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
        match (&st.object, &st.module) {
            (Some(o), _) => compiler::write_units_binary(o, executable, &st.options, board),
            (None, Some(m)) => compiler::write_binary(m, &st.options, board),
            (None, None) => Vec::new(),
        }
    }

    fn kernel_names(&self) -> CLResult<Vec<String>> {
        let m = self.module().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        Ok(m.kernels.iter().map(|k| k.name.clone()).collect())
    }

    /// `clGetProgramInfo` (without the reference count).
    pub fn info(&self, param: cl_program_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_PROGRAM_CONTEXT => InfoValue::object(ObjRef::Context(self.context.clone())),
            CL_PROGRAM_NUM_DEVICES => InfoValue::uint(self.devices.len() as u32),
            CL_PROGRAM_DEVICES => InfoValue::Objects(
                self.devices
                    .iter()
                    .map(|d| ObjRef::Device(d.clone()))
                    .collect(),
            ),
            CL_PROGRAM_SOURCE => {
                let text: String = self.sources.iter().map(|s| s.text.as_str()).collect();
                InfoValue::string(&text)
            }
            CL_PROGRAM_BINARY_SIZES => {
                let n = self.binary().len();
                InfoValue::sizes(&vec![n; self.devices.len()])
            }
            CL_PROGRAM_BINARIES => {
                let b = self.binary();
                InfoValue::Binaries(vec![b; self.devices.len()])
            }
            CL_PROGRAM_NUM_KERNELS => InfoValue::size(self.kernel_names()?.len()),
            CL_PROGRAM_KERNEL_NAMES => InfoValue::string(&self.kernel_names()?.join(";")),
            CL_PROGRAM_IL => InfoValue::Bytes(Vec::new()),
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
                InfoValue::bool(false)
            }
            _ => return Err(CL_INVALID_VALUE),
        })
    }

    /// `clGetProgramBuildInfo`.
    pub fn build_info(&self, param: cl_program_build_info) -> CLResult<InfoValue> {
        let st = self.state.lock();
        Ok(match param {
            CL_PROGRAM_BUILD_STATUS => InfoValue::int(st.status),
            CL_PROGRAM_BUILD_OPTIONS => InfoValue::string(&st.options),
            CL_PROGRAM_BUILD_LOG => InfoValue::string(&st.log),
            CL_PROGRAM_BINARY_TYPE => InfoValue::uint(st.binary_type),
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => InfoValue::size(0),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

/// The main files of an object's units (`CL_PROGRAM_SOURCE` of a linked program).
fn unit_sources(o: &Object) -> Vec<SourceFile> {
    o.units
        .iter()
        .filter_map(|u| u.sources.files.first().cloned())
        .collect()
}
