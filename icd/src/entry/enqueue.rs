//! `clEnqueue*` entry points.

use std::ffi::c_void;
use std::sync::Arc;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::memory::image;
use fpgacl_runtime::memory::ops::{self, RectArgs};
use fpgacl_runtime::program::launch;
use fpgacl_runtime::{CLResult, Event, Kernel, Mem, Queue};

use crate::api::{api_create_enqueue, api_enqueue, handles, out_event, triple, wait_list};
use crate::handle;

type H = *mut c_void;

/// Common prologue: the queue, the wait list.
unsafe fn qw(q: H, n: cl_uint, list: *const H) -> CLResult<(Arc<Queue>, Vec<Arc<Event>>)> {
    let queue = handle::get::<Queue>(q)?;
    let wait = wait_list(n, list)?;
    queue.check_wait_list(&wait)?;
    Ok((queue, wait))
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadBuffer(
    q: H,
    m: H,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let ev = ops::read_buffer(
            &queue,
            &mem,
            blocking != 0,
            offset,
            size,
            ptr as usize,
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteBuffer(
    q: H,
    m: H,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let ev = ops::write_buffer(
            &queue,
            &mem,
            blocking != 0,
            offset,
            size,
            ptr as usize,
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBuffer(
    q: H,
    src: H,
    dst: H,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let s = handle::get::<Mem>(src)?;
        let d = handle::get::<Mem>(dst)?;
        let ev = ops::copy_buffer(&queue, &s, &d, src_offset, dst_offset, size, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueFillBuffer(
    q: H,
    m: H,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        if pattern.is_null() || pattern_size == 0 || pattern_size > 128 {
            return Err(CL_INVALID_VALUE);
        }
        let pat = std::slice::from_raw_parts(pattern as *const u8, pattern_size);
        let ev = ops::fill_buffer(&queue, &mem, pat, offset, size, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

unsafe fn rect_args(
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
) -> CLResult<RectArgs> {
    Ok(RectArgs {
        buffer_origin: triple(buffer_origin)?,
        host_origin: triple(host_origin)?,
        region: triple(region)?,
        buffer_row_pitch: brp,
        buffer_slice_pitch: bsp,
        host_row_pitch: hrp,
        host_slice_pitch: hsp,
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadBufferRect(
    q: H,
    m: H,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let a = rect_args(buffer_origin, host_origin, region, brp, bsp, hrp, hsp)?;
        let ev = ops::rw_buffer_rect(&queue, &mem, false, blocking != 0, &a, ptr as usize, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteBufferRect(
    q: H,
    m: H,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *const c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let a = rect_args(buffer_origin, host_origin, region, brp, bsp, hrp, hsp)?;
        let ev = ops::rw_buffer_rect(&queue, &mem, true, blocking != 0, &a, ptr as usize, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBufferRect(
    q: H,
    src: H,
    dst: H,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    srp: usize,
    ssp: usize,
    drp: usize,
    dsp: usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let s = handle::get::<Mem>(src)?;
        let d = handle::get::<Mem>(dst)?;
        let a = rect_args(src_origin, dst_origin, region, srp, ssp, drp, dsp)?;
        let ev = ops::copy_buffer_rect(&queue, &s, &d, &a, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMapBuffer(
    q: H,
    m: H,
    blocking: cl_bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
    err: *mut cl_int,
) -> *mut c_void {
    api_create_enqueue(err, || {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let (ptr, ev) = ops::map_buffer(&queue, &mem, blocking != 0, flags, offset, size, &wait)?;
        out_event(event, ev);
        Ok(ptr as *mut c_void)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueUnmapMemObject(
    q: H,
    m: H,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let ev = ops::unmap(&queue, &mem, ptr as usize, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMigrateMemObjects(
    q: H,
    num_mems: cl_uint,
    mems: *const H,
    flags: cl_mem_migration_flags,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        if num_mems == 0 || mems.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let objs = handles(num_mems, mems)
            .iter()
            .map(|&h| handle::get::<Mem>(h))
            .collect::<Result<Vec<_>, _>>()?;
        let ev = ops::migrate(&queue, &objs, flags, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    q: H,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        out_event(event, ops::marker(&queue, false, &wait)?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    q: H,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        out_event(event, ops::marker(&queue, true, &wait)?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarker(q: H, event: *mut H) -> cl_int {
    api_enqueue(|| {
        let queue = handle::get::<Queue>(q)?;
        if event.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        out_event(event, ops::marker(&queue, false, &[])?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrier(q: H) -> cl_int {
    api_enqueue(|| {
        let queue = handle::get::<Queue>(q)?;
        ops::marker(&queue, true, &[]).map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWaitForEvents(q: H, n: cl_uint, list: *const H) -> cl_int {
    api_enqueue(|| {
        let queue = handle::get::<Queue>(q)?;
        if n == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let wait = handles(n, list)
            .iter()
            .map(|&h| handle::get::<Event>(h))
            .collect::<Result<Vec<_>, _>>()?;
        queue.check_wait_list(&wait)?;
        ops::marker(&queue, true, &wait).map(drop)
    })
}

unsafe fn opt_sizes<'a>(p: *const usize, dim: cl_uint) -> Option<&'a [usize]> {
    if p.is_null() || !(1..=3).contains(&dim) {
        None
    } else {
        Some(std::slice::from_raw_parts(p, dim as usize))
    }
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    q: H,
    k: H,
    dim: cl_uint,
    offset: *const usize,
    global: *const usize,
    local: *const usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let queue = handle::get::<Queue>(q)?;
        let kernel = handle::get::<Kernel>(k)?;
        let wait = wait_list(n, list)?;
        queue.check_wait_list(&wait)?;
        let ev = launch::enqueue_kernel(
            &queue,
            &kernel,
            CL_COMMAND_NDRANGE_KERNEL,
            dim,
            opt_sizes(offset, dim),
            opt_sizes(global, dim),
            opt_sizes(local, dim),
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueTask(
    q: H,
    k: H,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let queue = handle::get::<Queue>(q)?;
        let kernel = handle::get::<Kernel>(k)?;
        let wait = wait_list(n, list)?;
        queue.check_wait_list(&wait)?;
        let one = [1usize];
        let ev = launch::enqueue_kernel(
            &queue,
            &kernel,
            CL_COMMAND_TASK,
            1,
            None,
            Some(&one),
            Some(&one),
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueNativeKernel(
    q: H,
    _f: *mut c_void,
    _args: *mut c_void,
    _cb: usize,
    _num_mems: cl_uint,
    _mems: *const H,
    _locs: *const *const c_void,
    n: cl_uint,
    list: *const H,
    _event: *mut H,
) -> cl_int {
    // CL_DEVICE_EXECUTION_CAPABILITIES does not include CL_EXEC_NATIVE_KERNEL.
    api_enqueue(|| {
        qw(q, n, list)?;
        Err(CL_INVALID_OPERATION)
    })
}

// ---- image commands (runtime/src/memory/image.rs) ----

#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadImage(
    q: H,
    m: H,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let ev = image::rw_image(
            &queue,
            &mem,
            false,
            blocking != 0,
            triple(origin)?,
            triple(region)?,
            row_pitch,
            slice_pitch,
            ptr as usize,
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteImage(
    q: H,
    m: H,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *const c_void,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        let ev = image::rw_image(
            &queue,
            &mem,
            true,
            blocking != 0,
            triple(origin)?,
            triple(region)?,
            row_pitch,
            slice_pitch,
            ptr as usize,
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyImage(
    q: H,
    s: H,
    d: H,
    so: *const usize,
    dst_o: *const usize,
    r: *const usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let (src, dst) = (handle::get::<Mem>(s)?, handle::get::<Mem>(d)?);
        let ev = image::copy_image(
            &queue,
            &src,
            &dst,
            triple(so)?,
            triple(dst_o)?,
            triple(r)?,
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
    q: H,
    s: H,
    d: H,
    so: *const usize,
    r: *const usize,
    off: usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let (src, dst) = (handle::get::<Mem>(s)?, handle::get::<Mem>(d)?);
        let ev =
            image::copy_image_to_buffer(&queue, &src, &dst, triple(so)?, triple(r)?, off, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
    q: H,
    s: H,
    d: H,
    off: usize,
    dst_o: *const usize,
    r: *const usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let (src, dst) = (handle::get::<Mem>(s)?, handle::get::<Mem>(d)?);
        let ev = image::copy_buffer_to_image(
            &queue,
            &src,
            &dst,
            off,
            triple(dst_o)?,
            triple(r)?,
            &wait,
        )?;
        out_event(event, ev);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMapImage(
    q: H,
    m: H,
    blocking: cl_bool,
    flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    row_pitch: *mut usize,
    slice_pitch: *mut usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
    err: *mut cl_int,
) -> *mut c_void {
    api_create_enqueue(err, || {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        if row_pitch.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let is_3d = mem.image().is_some_and(|i| {
            matches!(
                i.header.kind,
                CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE1D_ARRAY
            )
        });
        if is_3d && slice_pitch.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let (ptr, rp, sp, ev) = image::map_image(
            &queue,
            &mem,
            blocking != 0,
            flags,
            triple(origin)?,
            triple(region)?,
            &wait,
        )?;
        *row_pitch = rp;
        if !slice_pitch.is_null() {
            *slice_pitch = sp;
        }
        out_event(event, ev);
        Ok(ptr as *mut c_void)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueFillImage(
    q: H,
    m: H,
    color: *const c_void,
    origin: *const usize,
    region: *const usize,
    n: cl_uint,
    list: *const H,
    event: *mut H,
) -> cl_int {
    api_enqueue(|| {
        let (queue, wait) = qw(q, n, list)?;
        let mem = handle::get::<Mem>(m)?;
        if color.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut c = [0u8; 16];
        c.copy_from_slice(std::slice::from_raw_parts(color as *const u8, 16));
        let ev = image::fill_image(&queue, &mem, c, triple(origin)?, triple(region)?, &wait)?;
        out_event(event, ev);
        Ok(())
    })
}
