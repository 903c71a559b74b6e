//! Platform, device and extension-function entry points.

use std::ffi::{c_char, c_void};

use fpgacl_runtime::cl::*;
use fpgacl_runtime::platform;

use crate::api::{api, c_str};
use crate::handle::{check_platform, device_handle, get_device, platform_handle};
use crate::info::{write_info, write_u32};

type H = *mut c_void;

unsafe fn platform_ids(n: cl_uint, out: *mut H, num: *mut cl_uint) -> cl_int {
    api(|| {
        if (n == 0 && !out.is_null()) || (out.is_null() && num.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        if !out.is_null() {
            *out = platform_handle();
        }
        if !num.is_null() {
            *num = 1;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetPlatformIDs(n: cl_uint, out: *mut H, num: *mut cl_uint) -> cl_int {
    platform_ids(n, out, num)
}

#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    n: cl_uint,
    out: *mut H,
    num: *mut cl_uint,
) -> cl_int {
    platform_ids(n, out, num)
}

/// Accepts our platform, or NULL (the implementation's only platform).
fn platform_or_default(p: H) -> fpgacl_runtime::CLResult<()> {
    if p.is_null() {
        Ok(())
    } else {
        check_platform(p)
    }
}

#[no_mangle]
pub unsafe extern "C" fn clGetPlatformInfo(
    p: H,
    param: cl_platform_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        platform_or_default(p)?;
        write_info(platform().info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceIDs(
    p: H,
    ty: cl_device_type,
    n: cl_uint,
    out: *mut H,
    num: *mut cl_uint,
) -> cl_int {
    api(|| {
        platform_or_default(p)?;
        if (n == 0 && !out.is_null()) || (out.is_null() && num.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        let devs = platform().devices_of_type(ty)?;
        if !out.is_null() {
            for (i, d) in devs.iter().take(n as usize).enumerate() {
                *out.add(i) = device_handle(d);
            }
        }
        if !num.is_null() {
            *num = devs.len() as cl_uint;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceInfo(
    d: H,
    param: cl_device_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let dev = get_device(d)?;
        if param == CL_DEVICE_REFERENCE_COUNT {
            return write_u32(1, size, value, size_ret);
        }
        write_info(dev.info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainDevice(d: H) -> cl_int {
    api(|| get_device(d).map(drop))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseDevice(d: H) -> cl_int {
    api(|| get_device(d).map(drop))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSubDevices(
    d: H,
    props: *const isize,
    _n: cl_uint,
    _out: *mut H,
    _num: *mut cl_uint,
) -> cl_int {
    api(|| {
        get_device(d)?;
        // The FPGA cannot be partitioned (CL_DEVICE_PARTITION_PROPERTIES is empty).
        let _ = props;
        Err(CL_INVALID_VALUE)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clUnloadCompiler() -> cl_int {
    CL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn clUnloadPlatformCompiler(p: H) -> cl_int {
    api(|| check_platform(p))
}

#[no_mangle]
pub unsafe extern "C" fn clGetHostTimer(d: H, host: *mut cl_ulong) -> cl_int {
    api(|| {
        get_device(d)?;
        if host.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        *host = fpgacl_runtime::clock::now_ns();
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceAndHostTimer(
    d: H,
    dev_t: *mut cl_ulong,
    host: *mut cl_ulong,
) -> cl_int {
    api(|| {
        get_device(d)?;
        if host.is_null() || dev_t.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let t = fpgacl_runtime::clock::now_ns();
        *host = t;
        *dev_t = t;
        Ok(())
    })
}

/// Extension functions reachable by name.
fn extension_function(name: &str) -> *mut c_void {
    match name {
        "clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        "clCreateBufferWithPropertiesINTEL" => {
            super::memory::clCreateBufferWithPropertiesINTEL as *mut c_void
        }
        _ => super::intel::lookup(name),
    }
}

#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(name: *const c_char) -> *mut c_void {
    std::panic::catch_unwind(|| {
        c_str(name)
            .map(extension_function)
            .unwrap_or(std::ptr::null_mut())
    })
    .unwrap_or(std::ptr::null_mut())
}

#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    p: H,
    name: *const c_char,
) -> *mut c_void {
    if check_platform(p).is_err() {
        return std::ptr::null_mut();
    }
    clGetExtensionFunctionAddress(name)
}
