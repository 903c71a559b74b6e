//! Context entry points.

use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::context::ContextNotify;
use fpgacl_runtime::{platform, CLResult, Context, Device};

use crate::api::{api, api_create, handles, property_list};
use crate::handle::{self, check_platform, get_device};
use crate::info::{write_info, write_u32};

type H = *mut c_void;

/// `pfn_notify` of `clCreateContext`.
pub type ContextCallback =
    Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>;

/// Validates a context property list; returns it with its terminating 0.
unsafe fn context_properties(props: *const cl_context_properties) -> CLResult<Vec<isize>> {
    let list = property_list(props)?;
    let mut seen = Vec::new();
    for pair in list.chunks(2) {
        if pair.len() < 2 {
            break; // the terminating 0
        }
        let (key, value) = (pair[0], pair[1]);
        if seen.contains(&key) {
            return Err(CL_INVALID_PROPERTY);
        }
        seen.push(key);
        match key {
            CL_CONTEXT_PLATFORM => check_platform(value as H)?,
            CL_CONTEXT_INTEROP_USER_SYNC => {
                if value != 0 && value != 1 {
                    return Err(CL_INVALID_PROPERTY);
                }
            }
            _ => return Err(CL_INVALID_PROPERTY),
        }
    }
    Ok(list)
}

fn notify(pfn: ContextCallback, user_data: *mut c_void) -> CLResult<Option<ContextNotify>> {
    match pfn {
        None if !user_data.is_null() => Err(CL_INVALID_VALUE),
        None => Ok(None),
        Some(f) => {
            let ud = user_data as usize;
            Ok(Some(Box::new(move |msg: &str| {
                let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
                // SAFETY: calling the application's callback as OpenCL specifies.
                unsafe { f(c.as_ptr(), std::ptr::null(), 0, ud as *mut c_void) };
            })))
        }
    }
}

fn make_context(
    devices: Vec<Arc<Device>>,
    props: Vec<isize>,
    pfn: ContextCallback,
    user_data: *mut c_void,
) -> CLResult<H> {
    let n = notify(pfn, user_data)?;
    Ok(handle::new_handle(Context::new(devices, props, n)))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateContext(
    props: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const H,
    pfn: ContextCallback,
    user_data: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        if num_devices == 0 || devices.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let props = context_properties(props)?;
        if pfn.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut devs: Vec<Arc<Device>> = Vec::new();
        for &d in handles(num_devices, devices) {
            let dev = get_device(d)?;
            if !devs.iter().any(|x| x.index == dev.index) {
                devs.push(dev);
            }
        }
        make_context(devs, props, pfn, user_data)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateContextFromType(
    props: *const cl_context_properties,
    ty: cl_device_type,
    pfn: ContextCallback,
    user_data: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let props = context_properties(props)?;
        if pfn.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let devs = platform().devices_of_type(ty)?;
        make_context(devs, props, pfn, user_data)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainContext(c: H) -> cl_int {
    api(|| handle::retain::<Context>(c))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseContext(c: H) -> cl_int {
    api(|| handle::release::<Context>(c))
}

#[no_mangle]
pub unsafe extern "C" fn clGetContextInfo(
    c: H,
    param: cl_context_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let ctx = handle::get::<Context>(c)?;
        if param == CL_CONTEXT_REFERENCE_COUNT {
            return write_u32(handle::ref_count::<Context>(c)?, size, value, size_ret);
        }
        write_info(ctx.info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetContextDestructorCallback(
    c: H,
    pfn: Option<unsafe extern "C" fn(H, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api(|| {
        let ctx = handle::get::<Context>(c)?;
        let f = pfn.ok_or(CL_INVALID_VALUE)?;
        let (h, ud) = (c as usize, user_data as usize);
        // SAFETY: calling the application's callback as OpenCL specifies.
        ctx.add_destructor_callback(Box::new(move || unsafe { f(h as H, ud as *mut c_void) }));
        Ok(())
    })
}
