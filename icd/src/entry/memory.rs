//! Memory object entry points: buffers, sub-buffers, pipes; images and samplers (the device
//! has no image support, so those return the specification's errors).

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{CLResult, Context, Mem};

use crate::api::{api, api_create, property_list};
use crate::handle;
use crate::info::{write_info, write_u32};

type H = *mut c_void;

fn create_buffer(c: H, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void) -> CLResult<H> {
    let ctx = handle::get::<Context>(c)?;
    let m = Mem::new_buffer(&ctx, flags, size, host_ptr as usize)?;
    Ok(handle::new_handle(m))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateBuffer(
    c: H,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || create_buffer(c, flags, size, host_ptr))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateBufferWithProperties(
    c: H,
    props: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        let list = property_list(props)?;
        if list.len() > 1 {
            return Err(CL_INVALID_PROPERTY);
        }
        create_buffer(c, flags, size, host_ptr)
    })
}

/// Intel's `clCreateBufferWithPropertiesINTEL`: `CL_MEM_CHANNEL_INTEL` selects the bank.
#[no_mangle]
pub unsafe extern "C" fn clCreateBufferWithPropertiesINTEL(
    c: H,
    props: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        let list = property_list(props)?;
        let mut flags = flags;
        for pair in list.chunks(2) {
            if pair.len() < 2 {
                break;
            }
            match pair[0] {
                CL_MEM_CHANNEL_INTEL => {
                    if pair[1] > 7 {
                        return Err(CL_INVALID_PROPERTY);
                    }
                    flags = (flags & !CL_MEM_BANK_MASK_INTELFPGA)
                        | (pair[1] << CL_MEM_BANK_SHIFT_INTELFPGA);
                }
                _ => return Err(CL_INVALID_PROPERTY),
            }
        }
        create_buffer(c, flags, size, host_ptr)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSubBuffer(
    m: H,
    flags: cl_mem_flags,
    ty: cl_buffer_create_type,
    info: *const c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let parent = handle::get::<Mem>(m)?;
        if ty != CL_BUFFER_CREATE_TYPE_REGION || info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // cl_buffer_region { size_t origin; size_t size; }
        let region = std::slice::from_raw_parts(info as *const usize, 2);
        let sub = Mem::new_sub_buffer(&parent, flags, region[0], region[1])?;
        Ok(handle::new_handle(sub))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainMemObject(m: H) -> cl_int {
    api(|| handle::retain::<Mem>(m))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseMemObject(m: H) -> cl_int {
    api(|| handle::release::<Mem>(m))
}

#[no_mangle]
pub unsafe extern "C" fn clGetMemObjectInfo(
    m: H,
    param: cl_mem_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let mem = handle::get::<Mem>(m)?;
        if param == CL_MEM_REFERENCE_COUNT {
            return write_u32(handle::ref_count::<Mem>(m)?, size, value, size_ret);
        }
        if param == CL_MEM_PROPERTIES {
            return write_info(
                Ok(fpgacl_runtime::InfoValue::Bytes(Vec::new())),
                size,
                value,
                size_ret,
            );
        }
        write_info(mem.info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    m: H,
    pfn: Option<unsafe extern "C" fn(H, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api(|| {
        let mem = handle::get::<Mem>(m)?;
        let f = pfn.ok_or(CL_INVALID_VALUE)?;
        let (h, ud) = (m as usize, user_data as usize);
        // SAFETY: calling the application's callback as OpenCL specifies.
        mem.add_destructor(Box::new(move || unsafe { f(h as H, ud as *mut c_void) }));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreatePipe(
    c: H,
    flags: cl_mem_flags,
    packet_size: cl_uint,
    max_packets: cl_uint,
    props: *const cl_pipe_properties,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let ctx = handle::get::<Context>(c)?;
        if !props.is_null() && *props != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let p = Mem::new_pipe(&ctx, flags, packet_size, max_packets)?;
        Ok(handle::new_handle(p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetPipeInfo(
    m: H,
    param: cl_pipe_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let mem = handle::get::<Mem>(m)?;
        if param == CL_PIPE_PROPERTIES {
            return write_info(
                Ok(fpgacl_runtime::InfoValue::Bytes(Vec::new())),
                size,
                value,
                size_ret,
            );
        }
        write_info(mem.pipe_info(param), size, value, size_ret)
    })
}

// ---- images: not supported by the device ----

#[no_mangle]
pub unsafe extern "C" fn clCreateImage(
    c: H,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _desc: *const c_void,
    _host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImageWithProperties(
    c: H,
    _props: *const cl_mem_properties,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _desc: *const c_void,
    _host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage2D(
    c: H,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _w: usize,
    _h: usize,
    _row_pitch: usize,
    _host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage3D(
    c: H,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _w: usize,
    _h: usize,
    _d: usize,
    _row_pitch: usize,
    _slice_pitch: usize,
    _host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetSupportedImageFormats(
    c: H,
    flags: cl_mem_flags,
    ty: cl_mem_object_type,
    n: cl_uint,
    formats: *mut c_void,
    num: *mut cl_uint,
) -> cl_int {
    api(|| {
        handle::get::<Context>(c)?;
        let valid_type = matches!(
            ty,
            CL_MEM_OBJECT_IMAGE1D
                | CL_MEM_OBJECT_IMAGE1D_BUFFER
                | CL_MEM_OBJECT_IMAGE1D_ARRAY
                | CL_MEM_OBJECT_IMAGE2D
                | CL_MEM_OBJECT_IMAGE2D_ARRAY
                | CL_MEM_OBJECT_IMAGE3D
        );
        if !valid_type || (n == 0 && !formats.is_null()) || flags & !0x3ff != 0 {
            return Err(CL_INVALID_VALUE);
        }
        if !num.is_null() {
            *num = 0;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetImageInfo(
    m: H,
    _param: cl_image_info,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    // No memory object is an image.
    api(|| {
        handle::get::<Mem>(m)?;
        Err(CL_INVALID_MEM_OBJECT)
    })
}

// ---- samplers: the device has no images, so no samplers ----

#[no_mangle]
pub unsafe extern "C" fn clCreateSampler(
    c: H,
    _normalized: cl_bool,
    _addressing: cl_addressing_mode,
    _filter: cl_filter_mode,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSamplerWithProperties(
    c: H,
    _props: *const cl_bitfield,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainSampler(_s: H) -> cl_int {
    CL_INVALID_SAMPLER
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseSampler(_s: H) -> cl_int {
    CL_INVALID_SAMPLER
}

#[no_mangle]
pub unsafe extern "C" fn clGetSamplerInfo(
    _s: H,
    _param: cl_sampler_info,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    CL_INVALID_SAMPLER
}
