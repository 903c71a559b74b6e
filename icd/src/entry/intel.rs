//! Intel FPGA extension entry points: dynamic profiler readouts
//! (`clGetProfileInfoIntelFPGA`, `clGetProfileDataDeviceIntelFPGA`) and host pipes
//! (`clReadPipeIntelFPGA`, `clWritePipeIntelFPGA`). `clCreateBufferWithPropertiesINTEL` is in
//! [`super::memory`]. All are exported from `libfpgacl.so` and reachable through
//! `clGetExtensionFunctionAddress(ForPlatform)` ([`lookup`]); the project's header
//! `include/CL/fpgacl_intel_ext.h` declares them.

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::profiling::{self, host_pipe};
use fpgacl_runtime::{Event, Mem, Program};

use crate::api::api;
use crate::handle::{self, get_device};

type H = *mut c_void;

/// Snapshots the counters of a running kernel into the profile. `CL_INVALID_EVENT` when the
/// event is not a kernel command that is running now.
#[no_mangle]
pub unsafe extern "C" fn clGetProfileInfoIntelFPGA(event: H) -> cl_int {
    api(|| {
        let ev = handle::get::<Event>(event)?;
        profiling::snapshot_event(&ev)
    })
}

/// Reads the counters of the device's kernels into the profile: autorun kernels
/// (`read_auto_enqueued`) as captures, running enqueued kernels (`read_enqueue_kernels`) as
/// snapshots; `clear_counters_after_readback` restarts the autorun counters. `program` may
/// be NULL (every program of the device). `param_value*` are unused, as in Intel's runtime
/// (`*param_value_size_ret` is set to 0). The status is returned and, if `errcode_ret` is not
/// NULL, stored there too.
#[no_mangle]
pub unsafe extern "C" fn clGetProfileDataDeviceIntelFPGA(
    device: H,
    program: H,
    read_enqueue_kernels: cl_bool,
    read_auto_enqueued: cl_bool,
    clear_counters_after_readback: cl_bool,
    _param_value_size: usize,
    _param_value: *mut c_void,
    param_value_size_ret: *mut usize,
    errcode_ret: *mut cl_int,
) -> cl_int {
    let code = api(|| {
        let dev = get_device(device)?;
        let instance = if program.is_null() {
            None
        } else {
            let p = handle::get::<Program>(program)?;
            if !p.devices.iter().any(|d| d.index == dev.index) {
                return Err(CL_INVALID_DEVICE);
            }
            Some(p.instance().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?)
        };
        if !param_value_size_ret.is_null() {
            *param_value_size_ret = 0;
        }
        profiling::capture_device(
            &dev,
            instance.as_ref(),
            read_enqueue_kernels != CL_FALSE,
            read_auto_enqueued != CL_FALSE,
            clear_counters_after_readback != CL_FALSE,
        )
    });
    if !errcode_ret.is_null() {
        *errcode_ret = code;
    }
    code
}

/// Reads one packet of a host-readable pipe into `ptr` (packet-size bytes). Non-blocking:
/// `CL_PIPE_EMPTY` when no packet is there.
#[no_mangle]
pub unsafe extern "C" fn clReadPipeIntelFPGA(pipe: H, ptr: *mut c_void) -> cl_int {
    api(|| {
        let m = handle::get::<Mem>(pipe)?;
        let n = host_pipe::packet_size(&m)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let dst = std::slice::from_raw_parts_mut(ptr as *mut u8, n);
        host_pipe::read(&m, dst)
    })
}

/// Writes one packet (packet-size bytes at `ptr`) into a host-writable pipe. Non-blocking:
/// `CL_PIPE_FULL` when there is no room.
#[no_mangle]
pub unsafe extern "C" fn clWritePipeIntelFPGA(pipe: H, ptr: *const c_void) -> cl_int {
    api(|| {
        let m = handle::get::<Mem>(pipe)?;
        let n = host_pipe::packet_size(&m)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let src = std::slice::from_raw_parts(ptr as *const u8, n);
        host_pipe::write(&m, src)
    })
}

/// The Intel FPGA extension functions by name (NULL for other names).
pub fn lookup(name: &str) -> *mut c_void {
    match name {
        "clGetProfileInfoIntelFPGA" => clGetProfileInfoIntelFPGA as *mut c_void,
        "clGetProfileDataDeviceIntelFPGA" => clGetProfileDataDeviceIntelFPGA as *mut c_void,
        "clReadPipeIntelFPGA" => clReadPipeIntelFPGA as *mut c_void,
        "clWritePipeIntelFPGA" => clWritePipeIntelFPGA as *mut c_void,
        "clCreateBufferWithPropertiesINTEL" => {
            super::memory::clCreateBufferWithPropertiesINTEL as *mut c_void
        }
        _ => std::ptr::null_mut(),
    }
}
