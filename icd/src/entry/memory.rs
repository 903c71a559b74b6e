//! Memory object entry points: buffers, sub-buffers, pipes, images and samplers.

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::memory::image::{self, ImageDesc, ImageFormat, Sampler};
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

// ---- images (runtime/src/memory/image.rs) ----

/// `cl_image_format`.
#[repr(C)]
struct ClImageFormat {
    order: cl_uint,
    dtype: cl_uint,
}

/// `cl_image_desc` (OpenCL 1.2).
#[repr(C)]
struct ClImageDesc {
    image_type: cl_uint,
    width: usize,
    height: usize,
    depth: usize,
    array_size: usize,
    row_pitch: usize,
    slice_pitch: usize,
    num_mip_levels: cl_uint,
    num_samples: cl_uint,
    buffer: *mut c_void,
}

unsafe fn read_format(f: *const c_void) -> Option<ImageFormat> {
    let f = (f as *const ClImageFormat).as_ref()?;
    Some(ImageFormat {
        order: f.order,
        dtype: f.dtype,
    })
}

unsafe fn create_image(
    c: H,
    flags: cl_mem_flags,
    format: *const c_void,
    desc: Option<ImageDesc>,
    host_ptr: *mut c_void,
) -> CLResult<H> {
    let ctx = handle::get::<Context>(c)?;
    if let Some(d) = desc {
        if d.buffer != 0 {
            handle::get::<Mem>(d.buffer as H).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
        }
    }
    let m = Mem::new_image(&ctx, flags, read_format(format), desc, host_ptr as usize)?;
    Ok(handle::new_handle(m))
}

unsafe fn read_desc(d: *const c_void) -> Option<ImageDesc> {
    let d = (d as *const ClImageDesc).as_ref()?;
    Some(ImageDesc {
        image_type: d.image_type,
        width: d.width,
        height: d.height,
        depth: d.depth,
        array_size: d.array_size,
        row_pitch: d.row_pitch,
        slice_pitch: d.slice_pitch,
        num_mip_levels: d.num_mip_levels,
        num_samples: d.num_samples,
        buffer: d.buffer as usize,
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage(
    c: H,
    flags: cl_mem_flags,
    format: *const c_void,
    desc: *const c_void,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        create_image(c, flags, format, read_desc(desc), host_ptr)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImageWithProperties(
    c: H,
    props: *const cl_mem_properties,
    flags: cl_mem_flags,
    format: *const c_void,
    desc: *const c_void,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        handle::get::<Context>(c)?;
        if property_list(props)?.len() > 1 {
            return Err(CL_INVALID_PROPERTY);
        }
        create_image(c, flags, format, read_desc(desc), host_ptr)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage2D(
    c: H,
    flags: cl_mem_flags,
    format: *const c_void,
    w: usize,
    h: usize,
    row_pitch: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    let desc = ImageDesc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        width: w,
        height: h,
        row_pitch,
        ..Default::default()
    };
    api_create(err, || {
        // OpenCL 1.1: zero sizes are CL_INVALID_IMAGE_SIZE here.
        if w == 0 || h == 0 {
            handle::get::<Context>(c)?;
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        create_image(c, flags, format, Some(desc), host_ptr)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage3D(
    c: H,
    flags: cl_mem_flags,
    format: *const c_void,
    w: usize,
    h: usize,
    d: usize,
    row_pitch: usize,
    slice_pitch: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> H {
    let desc = ImageDesc {
        image_type: CL_MEM_OBJECT_IMAGE3D,
        width: w,
        height: h,
        depth: d,
        row_pitch,
        slice_pitch,
        ..Default::default()
    };
    api_create(err, || {
        // OpenCL 1.1: a 3D image has a depth above 1.
        if w == 0 || h == 0 || d <= 1 {
            handle::get::<Context>(c)?;
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        create_image(c, flags, format, Some(desc), host_ptr)
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
        if !image::is_image_type(ty) || (n == 0 && !formats.is_null()) || flags & !0x3ff != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let list = image::supported_formats(ty);
        if !num.is_null() {
            *num = list.len() as cl_uint;
        }
        if !formats.is_null() {
            let out = formats as *mut ClImageFormat;
            for (i, f) in list.iter().take(n as usize).enumerate() {
                *out.add(i) = ClImageFormat {
                    order: f.order,
                    dtype: f.dtype,
                };
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetImageInfo(
    m: H,
    param: cl_image_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let mem = handle::get::<Mem>(m)?;
        write_info(mem.image_info(param), size, value, size_ret)
    })
}

// ---- samplers ----

#[no_mangle]
pub unsafe extern "C" fn clCreateSampler(
    c: H,
    normalized: cl_bool,
    addressing: cl_addressing_mode,
    filter: cl_filter_mode,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let ctx = handle::get::<Context>(c)?;
        let s = Sampler::new(&ctx, normalized, addressing, filter)?;
        Ok(handle::new_handle(s))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSamplerWithProperties(
    c: H,
    props: *const cl_bitfield,
    err: *mut cl_int,
) -> H {
    api_create(err, || {
        let ctx = handle::get::<Context>(c)?;
        // Defaults of OpenCL 2.0 5.7.1: normalized, clamp, nearest.
        let (mut norm, mut addr, mut filt) = (CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
        let list = property_list(props as *const cl_mem_properties)?;
        for pair in list.chunks(2) {
            if pair.len() < 2 {
                break;
            }
            match pair[0] as cl_uint {
                CL_SAMPLER_NORMALIZED_COORDS => norm = pair[1] as cl_bool,
                CL_SAMPLER_ADDRESSING_MODE => addr = pair[1] as cl_uint,
                CL_SAMPLER_FILTER_MODE => filt = pair[1] as cl_uint,
                _ => return Err(CL_INVALID_VALUE),
            }
        }
        let s = Sampler::new(&ctx, norm, addr, filt)?;
        Ok(handle::new_handle(s))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainSampler(s: H) -> cl_int {
    api(|| handle::retain::<Sampler>(s))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseSampler(s: H) -> cl_int {
    api(|| handle::release::<Sampler>(s))
}

#[no_mangle]
pub unsafe extern "C" fn clGetSamplerInfo(
    s: H,
    param: cl_sampler_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let smp = handle::get::<Sampler>(s)?;
        if param == CL_SAMPLER_REFERENCE_COUNT {
            return write_u32(handle::ref_count::<Sampler>(s)?, size, value, size_ret);
        }
        write_info(smp.info(param), size, value, size_ret)
    })
}
