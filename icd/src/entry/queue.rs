//! Command queue entry points.

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{CLResult, Context, Queue};

use crate::api::{api, api_create, property_list};
use crate::handle::{self, get_device};
use crate::info::{write_info, write_u32};

type H = *mut c_void;

const KNOWN_QUEUE_PROPS: cl_command_queue_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
    | CL_QUEUE_PROFILING_ENABLE
    | CL_QUEUE_ON_DEVICE
    | CL_QUEUE_ON_DEVICE_DEFAULT;

fn create_queue(
    c: H,
    d: H,
    props: cl_command_queue_properties,
    array: Vec<cl_queue_properties>,
) -> CLResult<H> {
    let ctx = handle::get::<Context>(c)?;
    let dev = get_device(d)?;
    if !ctx.has_device(&dev) {
        return Err(CL_INVALID_DEVICE);
    }
    if props & !KNOWN_QUEUE_PROPS != 0 {
        return Err(CL_INVALID_VALUE);
    }
    if props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) != 0 {
        // Device-side enqueue is not supported (and DEFAULT without ON_DEVICE is invalid).
        return Err(if props & CL_QUEUE_ON_DEVICE == 0 {
            CL_INVALID_VALUE
        } else {
            CL_INVALID_QUEUE_PROPERTIES
        });
    }
    let q = Queue::new(&ctx, &dev, props, array)?;
    Ok(handle::new_handle(q))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueue(
    c: H,
    d: H,
    props: cl_command_queue_properties,
    err: *mut cl_int,
) -> H {
    api_create(err, || create_queue(c, d, props, Vec::new()))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    c: H,
    d: H,
    props: *const cl_queue_properties,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let list = property_list(props)?;
        let mut bits = 0;
        let mut seen = Vec::new();
        let mut size_given = false;
        for pair in list.chunks(2) {
            if pair.len() < 2 {
                break;
            }
            if seen.contains(&pair[0]) {
                return Err(CL_INVALID_VALUE);
            }
            seen.push(pair[0]);
            match pair[0] as cl_uint {
                CL_QUEUE_PROPERTIES => bits = pair[1],
                CL_QUEUE_SIZE => size_given = true,
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        if size_given && bits & CL_QUEUE_ON_DEVICE == 0 {
            return Err(CL_INVALID_VALUE);
        }
        create_queue(c, d, bits, list)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainCommandQueue(q: H) -> cl_int {
    api(|| handle::retain::<Queue>(q))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseCommandQueue(q: H) -> cl_int {
    api(|| {
        // Releasing a queue flushes it; its commands still run to completion.
        handle::get::<Queue>(q)?.flush()?;
        handle::release::<Queue>(q)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetCommandQueueInfo(
    q: H,
    param: cl_command_queue_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let queue = handle::get::<Queue>(q)?;
        match param {
            CL_QUEUE_REFERENCE_COUNT => {
                write_u32(handle::ref_count::<Queue>(q)?, size, value, size_ret)
            }
            CL_QUEUE_DEVICE_DEFAULT => write_info(
                Ok(fpgacl_runtime::InfoValue::null_object()),
                size,
                value,
                size_ret,
            ),
            CL_QUEUE_SIZE => Err(CL_INVALID_COMMAND_QUEUE),
            _ => write_info(queue.info(param), size, value, size_ret),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetCommandQueueProperty(
    q: H,
    _props: cl_command_queue_properties,
    _enable: cl_bool,
    _old: *mut cl_command_queue_properties,
) -> cl_int {
    // Deprecated in OpenCL 1.1: queue properties cannot change after creation.
    api(|| {
        handle::get::<Queue>(q)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(c: H, d: H, q: H) -> cl_int {
    api(|| {
        handle::get::<Context>(c)?;
        get_device(d)?;
        handle::get::<Queue>(q)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clFlush(q: H) -> cl_int {
    api(|| handle::get::<Queue>(q)?.flush())
}

#[no_mangle]
pub unsafe extern "C" fn clFinish(q: H) -> cl_int {
    api(|| {
        let r = handle::get::<Queue>(q)?.finish();
        handle::sweep();
        r
    })
}
