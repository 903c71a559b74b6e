//! Kernel objects: argument values and kernel/argument/work-group queries.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use fpgacl_kernel_compiler::ir::{ArgAccess, ArgAddress, ArgKind, Function, Module};
use parking_lot::Mutex;

use crate::cl::*;
use crate::device::Device;
use crate::error::{check, CLResult};
use crate::info::{InfoValue, ObjRef};
use crate::memory::Mem;
use crate::program::Program;

/// The value bound to one kernel argument.
#[derive(Clone, Debug)]
pub enum ArgValue {
    /// Bytes of a scalar, vector or struct passed by value.
    Bytes(Vec<u8>),
    /// A global/constant buffer (`None` for a NULL `cl_mem`).
    Buffer(Option<Arc<Mem>>),
    /// Size in bytes of a `__local` allocation.
    Local(usize),
    /// A pipe object.
    Pipe(Arc<Mem>),
}

/// An argument value as the kernel keeps it: memory objects by weak reference, because
/// setting a kernel argument does not retain the object (a host may release a buffer that is
/// still set as an argument, and its destructor callbacks must then run). A launch takes
/// strong references at enqueue time ([`Kernel::arg_values`]).
#[derive(Clone, Debug)]
enum SetArg {
    Bytes(Vec<u8>),
    Buffer(Option<Weak<Mem>>),
    Local(usize),
    Pipe(Weak<Mem>),
}

/// A kernel: one function of a built program plus its argument values.
pub struct Kernel {
    pub program: Arc<Program>,
    pub module: Arc<Module>,
    /// Index of the function in `module.kernels`.
    pub index: usize,
    args: Mutex<Vec<Option<SetArg>>>,
    /// The program's `-no-interleaving=<memory type>` build option, read at the first launch
    /// (a program with kernels cannot be rebuilt, so it stays valid).
    no_interleaving: std::sync::OnceLock<Option<String>>,
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.kernels.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The offline compiler's work-group size limit for a kernel with barriers and no
/// `reqd_work_group_size` / `max_work_group_size`.
pub const BARRIER_DEFAULT_WORK_GROUP_SIZE: usize = 256;

/// Size of a `cl_mem` handle as `clSetKernelArg` receives it.
pub const MEM_ARG_SIZE: usize = std::mem::size_of::<usize>();

impl Kernel {
    /// `clCreateKernel`.
    pub fn new(program: &Arc<Program>, name: &str) -> CLResult<Arc<Self>> {
        let module = program.module().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        let index = module
            .kernels
            .iter()
            .position(|k| k.name == name)
            .ok_or(CL_INVALID_KERNEL_NAME)?;
        Ok(Self::from_index(program, module, index))
    }

    fn from_index(program: &Arc<Program>, module: Arc<Module>, index: usize) -> Arc<Self> {
        program.kernels.fetch_add(1, Ordering::SeqCst);
        let n = module.kernels[index].args.len();
        Arc::new(Kernel {
            program: program.clone(),
            module,
            index,
            args: Mutex::new(vec![None; n]),
            no_interleaving: std::sync::OnceLock::new(),
        })
    }

    /// `clCreateKernelsInProgram`: one kernel per function (autorun kernels included, as
    /// their handles are needed for nothing but queries).
    pub fn all(program: &Arc<Program>) -> CLResult<Vec<Arc<Self>>> {
        let module = program.module().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        Ok((0..module.kernels.len())
            .map(|i| Self::from_index(program, module.clone(), i))
            .collect())
    }

    /// `clCloneKernel`.
    pub fn duplicate(&self) -> Arc<Self> {
        let k = Self::from_index(&self.program, self.module.clone(), self.index);
        *k.args.lock() = self.args.lock().clone();
        k
    }

    /// The memory type of the program's `-no-interleaving=<memory type>` build option, if
    /// any (read once per kernel, not at every launch).
    pub fn no_interleaving(&self) -> Option<&str> {
        self.no_interleaving
            .get_or_init(|| {
                let InfoValue::Bytes(raw) =
                    self.program.build_info(CL_PROGRAM_BUILD_OPTIONS).ok()?
                else {
                    return None;
                };
                let text =
                    String::from_utf8_lossy(raw.strip_suffix(&[0]).unwrap_or(&raw)).into_owned();
                let opts = fpgacl_kernel_compiler::options::BuildOptions::parse(&text).ok()?;
                opts.no_interleaving
            })
            .as_deref()
    }

    /// The kernel's IR function.
    pub fn function(&self) -> &Function {
        &self.module.kernels[self.index]
    }

    /// `clSetKernelArg`. `value` is the bytes at `arg_value` (`None` for NULL) and
    /// `resolve_mem` turns a `cl_mem` handle value into its object.
    pub fn set_arg(
        &self,
        index: u32,
        size: usize,
        value: Option<&[u8]>,
        resolve_mem: &dyn Fn(usize) -> CLResult<Arc<Mem>>,
    ) -> CLResult<()> {
        self.set_arg_with(index, size, value, resolve_mem, &|_| {
            Err(CL_INVALID_SAMPLER)
        })
    }

    /// `clSetKernelArg` with a resolver of `cl_sampler` handles for `sampler_t` arguments.
    pub fn set_arg_with(
        &self,
        index: u32,
        size: usize,
        value: Option<&[u8]>,
        resolve_mem: &dyn Fn(usize) -> CLResult<Arc<Mem>>,
        resolve_sampler: &dyn Fn(usize) -> CLResult<Arc<crate::memory::image::Sampler>>,
    ) -> CLResult<()> {
        let f = self.function();
        let arg = f.args.get(index as usize).ok_or(CL_INVALID_ARG_INDEX)?;
        let v = match &arg.kind {
            ArgKind::Buffer { .. } => {
                check(size == MEM_ARG_SIZE, CL_INVALID_ARG_SIZE)?;
                let h = value.map(read_usize).unwrap_or(0);
                if h == 0 {
                    SetArg::Buffer(None)
                } else {
                    let m = resolve_mem(h)?;
                    check(!m.is_pipe() && m.image().is_none(), CL_INVALID_MEM_OBJECT)?;
                    check(
                        Arc::ptr_eq(&m.context, &self.program.context),
                        CL_INVALID_MEM_OBJECT,
                    )?;
                    SetArg::Buffer(Some(Arc::downgrade(&m)))
                }
            }
            ArgKind::LocalPtr { .. } => {
                check(value.is_none(), CL_INVALID_ARG_VALUE)?;
                check(size > 0, CL_INVALID_ARG_SIZE)?;
                SetArg::Local(size)
            }
            ArgKind::Pipe { packet_size, .. } => {
                check(size == MEM_ARG_SIZE, CL_INVALID_ARG_SIZE)?;
                let h = value.map(read_usize).unwrap_or(0);
                check(h != 0, CL_INVALID_ARG_VALUE)?;
                let m = resolve_mem(h)?;
                check(m.is_pipe(), CL_INVALID_ARG_VALUE)?;
                // The pipe's packets must be the kernel's pipe element type.
                if let crate::memory::MemKind::Pipe {
                    packet_size: have, ..
                } = m.kind
                {
                    check(have == *packet_size, CL_INVALID_ARG_VALUE)?;
                }
                SetArg::Pipe(Arc::downgrade(&m))
            }
            ArgKind::Image { dim, .. } => {
                check(size == MEM_ARG_SIZE, CL_INVALID_ARG_SIZE)?;
                let h = value.map(read_usize).unwrap_or(0);
                check(h != 0, CL_INVALID_ARG_VALUE)?;
                let m = resolve_mem(h)?;
                check(
                    Arc::ptr_eq(&m.context, &self.program.context),
                    CL_INVALID_MEM_OBJECT,
                )?;
                let img = m.image().ok_or(CL_INVALID_MEM_OBJECT)?;
                // An image of another type than the argument's.
                check(
                    img.header.kind == dim.mem_object_type(),
                    CL_INVALID_ARG_VALUE,
                )?;
                SetArg::Buffer(Some(Arc::downgrade(&m)))
            }
            ArgKind::Sampler => {
                check(size == MEM_ARG_SIZE, CL_INVALID_ARG_SIZE)?;
                let h = value.map(read_usize).unwrap_or(0);
                check(h != 0, CL_INVALID_SAMPLER)?;
                let s = resolve_sampler(h)?;
                check(
                    Arc::ptr_eq(&s.context, &self.program.context),
                    CL_INVALID_SAMPLER,
                )?;
                SetArg::Bytes(s.bits().to_le_bytes().to_vec())
            }
            ArgKind::Value { .. } | ArgKind::ByValue { .. } => {
                check(size == arg.size as usize, CL_INVALID_ARG_SIZE)?;
                let bytes = value.ok_or(CL_INVALID_ARG_VALUE)?;
                SetArg::Bytes(bytes.get(..size).ok_or(CL_INVALID_ARG_SIZE)?.to_vec())
            }
        };
        self.args.lock()[index as usize] = Some(v);
        Ok(())
    }

    /// Snapshot of all argument values; `CL_INVALID_KERNEL_ARGS` if one is not set or its
    /// memory object has been released since.
    pub fn arg_values(&self) -> CLResult<Vec<ArgValue>> {
        let up = |w: &Weak<Mem>| w.upgrade().ok_or(CL_INVALID_KERNEL_ARGS);
        self.args
            .lock()
            .iter()
            .map(|a| match a.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)? {
                SetArg::Bytes(b) => Ok(ArgValue::Bytes(b.clone())),
                SetArg::Buffer(None) => Ok(ArgValue::Buffer(None)),
                SetArg::Buffer(Some(w)) => Ok(ArgValue::Buffer(Some(up(w)?))),
                SetArg::Local(n) => Ok(ArgValue::Local(*n)),
                SetArg::Pipe(w) => Ok(ArgValue::Pipe(up(w)?)),
            })
            .collect()
    }

    /// Bytes of `__local` memory a launch needs (variables plus `__local` arguments).
    pub fn local_mem_size(&self) -> u64 {
        let f = self.function();
        let args: usize = self
            .args
            .lock()
            .iter()
            .map(|a| match a {
                Some(SetArg::Local(n)) => *n,
                _ => 0,
            })
            .sum();
        f.local_size as u64 + args as u64
    }

    /// The work-group size limit of this kernel on `device`.
    pub fn max_work_group_size(&self, device: &Device) -> usize {
        let f = self.function();
        let dev_max = device.max_work_group_size();
        if let Some(r) = f.attrs.reqd_work_group_size {
            return r
                .iter()
                .map(|&x| x as usize)
                .product::<usize>()
                .min(dev_max);
        }
        if let Some(m) = f.attrs.max_work_group_size {
            return (m as usize).min(dev_max);
        }
        // Without either attribute the offline compiler limits a kernel with barriers to 256
        // work-items and imposes no limit on one without (Best Practices Guide, "Specifying a
        // Work-Group Size").
        let barrier = f.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i, fpgacl_kernel_compiler::ir::Inst::Barrier { .. }))
        });
        if barrier {
            BARRIER_DEFAULT_WORK_GROUP_SIZE.min(dev_max)
        } else {
            dev_max
        }
    }

    /// `CL_KERNEL_ATTRIBUTES`: the attributes as written in the source, without spaces inside
    /// the parentheses, separated by one space (as the OpenCL 1.2 query table describes).
    fn attributes_string(&self) -> String {
        let a = &self.function().attrs;
        let mut parts = Vec::new();
        if let Some([x, y, z]) = a.work_group_size_hint {
            parts.push(format!("work_group_size_hint({x},{y},{z})"));
        }
        if let Some([x, y, z]) = a.reqd_work_group_size {
            parts.push(format!("reqd_work_group_size({x},{y},{z})"));
        }
        if let Some(m) = a.max_work_group_size {
            parts.push(format!("max_work_group_size({m})"));
        }
        if a.num_compute_units != [1, 1, 1] {
            let [x, y, z] = a.num_compute_units;
            parts.push(format!("num_compute_units({x},{y},{z})"));
        }
        if let Some(n) = a.num_simd_work_items {
            parts.push(format!("num_simd_work_items({n})"));
        }
        if a.autorun {
            parts.push("autorun".into());
        }
        if let Some(d) = a.max_global_work_dim {
            parts.push(format!("max_global_work_dim({d})"));
        }
        if let Some(h) = &a.vec_type_hint {
            parts.push(format!("vec_type_hint({h})"));
        }
        parts.join(" ")
    }

    /// `clGetKernelInfo` (without the reference count).
    pub fn info(&self, param: cl_kernel_info) -> CLResult<InfoValue> {
        let f = self.function();
        Ok(match param {
            CL_KERNEL_FUNCTION_NAME => InfoValue::string(&f.name),
            CL_KERNEL_NUM_ARGS => InfoValue::uint(f.args.len() as u32),
            CL_KERNEL_CONTEXT => InfoValue::object(ObjRef::Context(self.program.context.clone())),
            CL_KERNEL_PROGRAM => InfoValue::object(ObjRef::Program(self.program.clone())),
            CL_KERNEL_ATTRIBUTES => InfoValue::string(&self.attributes_string()),
            _ => return Err(CL_INVALID_VALUE),
        })
    }

    /// `clGetKernelArgInfo`.
    pub fn arg_info(&self, index: u32, param: cl_kernel_arg_info) -> CLResult<InfoValue> {
        let arg = self
            .function()
            .args
            .get(index as usize)
            .ok_or(CL_INVALID_ARG_INDEX)?;
        if !self.program.has_kernel_arg_info() {
            return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        }
        Ok(match param {
            CL_KERNEL_ARG_ADDRESS_QUALIFIER => InfoValue::uint(match arg.address {
                ArgAddress::Global => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                ArgAddress::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                ArgAddress::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
                ArgAddress::Private => CL_KERNEL_ARG_ADDRESS_PRIVATE,
            }),
            CL_KERNEL_ARG_ACCESS_QUALIFIER => InfoValue::uint(match arg.access {
                ArgAccess::None => CL_KERNEL_ARG_ACCESS_NONE,
                ArgAccess::ReadOnly => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                ArgAccess::WriteOnly => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                ArgAccess::ReadWrite => CL_KERNEL_ARG_ACCESS_READ_WRITE,
            }),
            CL_KERNEL_ARG_TYPE_NAME => InfoValue::string(&arg.type_name),
            CL_KERNEL_ARG_TYPE_QUALIFIER => {
                let mut q = CL_KERNEL_ARG_TYPE_NONE;
                // The qualifiers describe what a pointer argument points to; an argument
                // passed by value has none (`const int x` is CL_KERNEL_ARG_TYPE_NONE), and a
                // pipe is only CL_KERNEL_ARG_TYPE_PIPE.
                let pointer = matches!(arg.kind, ArgKind::Buffer { .. } | ArgKind::LocalPtr { .. });
                if arg.is_pipe {
                    q |= CL_KERNEL_ARG_TYPE_PIPE;
                } else if pointer {
                    // A `__constant` pointer's data is const, declared so or not (as the
                    // specification's query table says, and as PoCL answers).
                    if arg.is_const || arg.address == ArgAddress::Constant {
                        q |= CL_KERNEL_ARG_TYPE_CONST;
                    }
                    if arg.is_restrict {
                        q |= CL_KERNEL_ARG_TYPE_RESTRICT;
                    }
                    if arg.is_volatile {
                        q |= CL_KERNEL_ARG_TYPE_VOLATILE;
                    }
                }
                InfoValue::ulong(q)
            }
            CL_KERNEL_ARG_NAME => InfoValue::string(&arg.name),
            _ => return Err(CL_INVALID_VALUE),
        })
    }

    /// `clGetKernelWorkGroupInfo`.
    pub fn work_group_info(
        &self,
        device: &Device,
        param: cl_kernel_work_group_info,
    ) -> CLResult<InfoValue> {
        let f = self.function();
        Ok(match param {
            CL_KERNEL_WORK_GROUP_SIZE => InfoValue::size(self.max_work_group_size(device)),
            CL_KERNEL_COMPILE_WORK_GROUP_SIZE => {
                let r = f.attrs.reqd_work_group_size.unwrap_or([0; 3]);
                InfoValue::sizes(&[r[0] as usize, r[1] as usize, r[2] as usize])
            }
            CL_KERNEL_LOCAL_MEM_SIZE => InfoValue::ulong(self.local_mem_size()),
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => InfoValue::size(1),
            CL_KERNEL_PRIVATE_MEM_SIZE => InfoValue::ulong(f.frame_size as u64),
            CL_KERNEL_GLOBAL_WORK_SIZE => return Err(CL_INVALID_VALUE),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

fn read_usize(b: &[u8]) -> usize {
    let mut a = [0u8; MEM_ARG_SIZE];
    let n = b.len().min(MEM_ARG_SIZE);
    a[..n].copy_from_slice(&b[..n]);
    usize::from_ne_bytes(a)
}
