//! Program and kernel entry points.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use fpgacl_kernel_compiler::SourceFile;
use fpgacl_runtime::cl::*;
use fpgacl_runtime::{CLResult, Context, Device, Kernel, Mem, Program};

use crate::api::{api, api_create, c_options, c_str, c_string_lossy, handles};
use crate::handle::{self, get_device};
use crate::info::{write_info, write_u32};

type H = *mut c_void;
/// `pfn_notify` of the build calls.
pub type BuildCallback = Option<unsafe extern "C" fn(H, *mut c_void)>;

/// Devices of a `(num_devices, device_list)` pair: all of the program's when NULL.
unsafe fn device_list(
    n: cl_uint,
    list: *const H,
    all: &[Arc<Device>],
) -> CLResult<Vec<Arc<Device>>> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    if n == 0 {
        return Ok(all.to_vec());
    }
    handles(n, list).iter().map(|&d| get_device(d)).collect()
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithSource(
    c: H,
    count: cl_uint,
    strings: *const *const c_char,
    lengths: *const usize,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let ctx = handle::get::<Context>(c)?;
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut texts = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let s = *strings.add(i);
            if s.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let len = if lengths.is_null() {
                0
            } else {
                *lengths.add(i)
            };
            let text = if len == 0 {
                c_string_lossy(s)
            } else {
                String::from_utf8_lossy(std::slice::from_raw_parts(s as *const u8, len))
                    .into_owned()
            };
            texts.push(text);
        }
        Ok(handle::new_handle(Program::with_source(&ctx, texts)?))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBinary(
    c: H,
    n: cl_uint,
    devices: *const H,
    lengths: *const usize,
    binaries: *const *const u8,
    status: *mut cl_int,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let ctx = handle::get::<Context>(c)?;
        if n == 0 || devices.is_null() || lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut devs = Vec::new();
        for &d in handles(n, devices) {
            let dev = get_device(d)?;
            if !ctx.has_device(&dev) {
                return Err(CL_INVALID_DEVICE);
            }
            devs.push(dev);
        }
        let mut bins: Vec<&[u8]> = Vec::new();
        for i in 0..n as usize {
            let (p, len) = (*binaries.add(i), *lengths.add(i));
            if p.is_null() || len == 0 {
                if !status.is_null() {
                    *status.add(i) = CL_INVALID_VALUE;
                }
                return Err(CL_INVALID_VALUE);
            }
            bins.push(std::slice::from_raw_parts(p, len));
        }
        let (prog, statuses) = Program::with_binaries(&ctx, devs, &bins);
        if !status.is_null() {
            for (i, s) in statuses.iter().enumerate() {
                *status.add(i) = *s;
            }
        }
        Ok(handle::new_handle(prog?))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
    c: H,
    n: cl_uint,
    devices: *const H,
    names: *const c_char,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        if n == 0 || devices.is_null() || names.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        for &d in handles(n, devices) {
            get_device(d)?;
        }
        // CL_DEVICE_BUILT_IN_KERNELS is empty.
        Err(CL_INVALID_VALUE)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithIL(
    c: H,
    _il: *const c_void,
    _len: usize,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainProgram(p: H) -> cl_int {
    api(|| handle::retain::<Program>(p))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseProgram(p: H) -> cl_int {
    api(|| handle::release::<Program>(p))
}

fn call_build_callback(p: H, pfn: BuildCallback, user_data: *mut c_void) {
    if let Some(f) = pfn {
        // SAFETY: calling the application's callback as OpenCL specifies.
        unsafe { f(p, user_data) };
    }
}

#[no_mangle]
pub unsafe extern "C" fn clBuildProgram(
    p: H,
    n: cl_uint,
    devices: *const H,
    options: *const c_char,
    pfn: BuildCallback,
    user_data: *mut c_void,
) -> cl_int {
    api(|| {
        let prog = handle::get::<Program>(p)?;
        let devs = device_list(n, devices, &prog.devices)?;
        prog.check_devices(&devs)?;
        if pfn.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let opts = c_options(options, CL_INVALID_BUILD_OPTIONS)?;
        let r = prog.build(&opts);
        call_build_callback(p, pfn, user_data);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCompileProgram(
    p: H,
    n: cl_uint,
    devices: *const H,
    options: *const c_char,
    num_headers: cl_uint,
    headers: *const H,
    header_names: *const *const c_char,
    pfn: BuildCallback,
    user_data: *mut c_void,
) -> cl_int {
    api(|| {
        let prog = handle::get::<Program>(p)?;
        let devs = device_list(n, devices, &prog.devices)?;
        prog.check_devices(&devs)?;
        if pfn.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if (num_headers == 0) != headers.is_null() || (num_headers == 0) != header_names.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut hdrs = Vec::new();
        for (i, &h) in handles(num_headers, headers).iter().enumerate() {
            let hp = handle::get::<Program>(h)?;
            let name = c_str(*header_names.add(i)).ok_or(CL_INVALID_VALUE)?;
            let text: String = hp.sources.iter().map(|s| s.text.as_str()).collect();
            hdrs.push(SourceFile {
                name: name.to_string(),
                text,
            });
        }
        let opts = c_options(options, CL_INVALID_COMPILER_OPTIONS)?;
        let r = prog.compile(&opts, hdrs);
        call_build_callback(p, pfn, user_data);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn clLinkProgram(
    c: H,
    n: cl_uint,
    devices: *const H,
    options: *const c_char,
    num_inputs: cl_uint,
    inputs: *const H,
    pfn: BuildCallback,
    user_data: *mut c_void,
    err: *mut cl_int,
) -> H {
    let mut linked: H = std::ptr::null_mut();
    let mut code = CL_SUCCESS;
    let created = api_create(&mut code, || {
        let ctx = handle::get::<Context>(c)?;
        let devs = device_list(n, devices, &ctx.devices)?;
        for d in &devs {
            if !ctx.has_device(d) {
                return Err(CL_INVALID_DEVICE);
            }
        }
        if num_inputs == 0 || inputs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if pfn.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let progs = handles(num_inputs, inputs)
            .iter()
            .map(|&h| handle::get::<Program>(h))
            .collect::<Result<Vec<_>, _>>()?;
        let opts = c_options(options, CL_INVALID_LINKER_OPTIONS)?;
        let (prog, result) = Program::link(&ctx, devs, &opts, &progs)?;
        let h = handle::new_handle(prog);
        linked = h;
        call_build_callback(h, pfn, user_data);
        result.map(|_| h)
    });
    if !err.is_null() {
        *err = code;
    }
    // A failed link still returns its program (with the log), as the specification allows.
    if created.is_null() {
        linked
    } else {
        created
    }
}

#[no_mangle]
pub unsafe extern "C" fn clGetProgramInfo(
    p: H,
    param: cl_program_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let prog = handle::get::<Program>(p)?;
        if param == CL_PROGRAM_REFERENCE_COUNT {
            return write_u32(handle::ref_count::<Program>(p)?, size, value, size_ret);
        }
        write_info(prog.info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetProgramBuildInfo(
    p: H,
    d: H,
    param: cl_program_build_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let prog = handle::get::<Program>(p)?;
        let dev = get_device(d)?;
        prog.check_devices(&[dev])?;
        write_info(prog.build_info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetProgramReleaseCallback(
    p: H,
    _pfn: BuildCallback,
    _user_data: *mut c_void,
) -> cl_int {
    api(|| {
        handle::get::<Program>(p)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetProgramSpecializationConstant(
    p: H,
    _id: cl_uint,
    _size: usize,
    _value: *const c_void,
) -> cl_int {
    api(|| {
        handle::get::<Program>(p)?;
        Err(CL_INVALID_PROGRAM)
    })
}

// ---- kernels ----

#[no_mangle]
pub unsafe extern "C" fn clCreateKernel(p: H, name: *const c_char, err: *mut cl_int) -> H {
    api_create(err, || {
        let prog = handle::get::<Program>(p)?;
        let name = c_str(name).ok_or(CL_INVALID_VALUE)?;
        Ok(handle::new_handle(Kernel::new(&prog, name)?))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateKernelsInProgram(
    p: H,
    n: cl_uint,
    out: *mut H,
    num: *mut cl_uint,
) -> cl_int {
    api(|| {
        let prog = handle::get::<Program>(p)?;
        let count = prog
            .module()
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?
            .kernels
            .len();
        if !out.is_null() && (n as usize) < count {
            return Err(CL_INVALID_VALUE);
        }
        if !out.is_null() {
            for (i, k) in Kernel::all(&prog)?.into_iter().enumerate() {
                *out.add(i) = handle::new_handle(k);
            }
        }
        if !num.is_null() {
            *num = count as cl_uint;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCloneKernel(k: H, err: *mut cl_int) -> H {
    api_create(err, || {
        let kernel = handle::get::<Kernel>(k)?;
        Ok(handle::new_handle(kernel.duplicate()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainKernel(k: H) -> cl_int {
    api(|| handle::retain::<Kernel>(k))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseKernel(k: H) -> cl_int {
    api(|| handle::release::<Kernel>(k))
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelArg(
    k: H,
    index: cl_uint,
    size: usize,
    value: *const c_void,
) -> cl_int {
    api(|| {
        let kernel = handle::get::<Kernel>(k)?;
        // No argument is larger than CL_DEVICE_MAX_PARAMETER_SIZE: never look further than
        // that into the caller's memory (a wrong size is rejected by the runtime).
        let bytes = if value.is_null() {
            None
        } else {
            let n = size.min(fpgacl_runtime::device::MAX_PARAMETER_SIZE);
            Some(std::slice::from_raw_parts(value as *const u8, n))
        };
        kernel.set_arg_with(index, size, bytes, &|h| handle::get::<Mem>(h as H), &|h| {
            handle::get::<fpgacl_runtime::memory::image::Sampler>(h as H)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelArgSVMPointer(
    k: H,
    _index: cl_uint,
    _p: *const c_void,
) -> cl_int {
    api(|| {
        handle::get::<Kernel>(k)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelExecInfo(
    k: H,
    _param: cl_uint,
    _size: usize,
    _value: *const c_void,
) -> cl_int {
    api(|| {
        handle::get::<Kernel>(k)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelInfo(
    k: H,
    param: cl_kernel_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let kernel = handle::get::<Kernel>(k)?;
        if param == CL_KERNEL_REFERENCE_COUNT {
            return write_u32(handle::ref_count::<Kernel>(k)?, size, value, size_ret);
        }
        write_info(kernel.info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelArgInfo(
    k: H,
    index: cl_uint,
    param: cl_kernel_arg_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let kernel = handle::get::<Kernel>(k)?;
        write_info(kernel.arg_info(index, param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelWorkGroupInfo(
    k: H,
    d: H,
    param: cl_kernel_work_group_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let kernel = handle::get::<Kernel>(k)?;
        let dev = if d.is_null() {
            if kernel.program.devices.len() != 1 {
                return Err(CL_INVALID_DEVICE);
            }
            kernel.program.devices[0].clone()
        } else {
            let dev = get_device(d)?;
            kernel.program.check_devices(std::slice::from_ref(&dev))?;
            dev
        };
        write_info(kernel.work_group_info(&dev, param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelSubGroupInfo(
    k: H,
    _d: H,
    _param: cl_uint,
    _in_size: usize,
    _in: *const c_void,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    api(|| {
        handle::get::<Kernel>(k)?;
        Err(CL_INVALID_OPERATION)
    })
}
