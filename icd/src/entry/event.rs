//! Event entry points.

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{Context, Event};

use crate::api::{api, api_create, handles};
use crate::handle;
use crate::info::{write_bytes, write_info, write_u32};

type H = *mut c_void;

#[no_mangle]
pub unsafe extern "C" fn clWaitForEvents(n: cl_uint, list: *const H) -> cl_int {
    api(|| {
        if n == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let events = handles(n, list)
            .iter()
            .map(|&h| handle::get::<Event>(h))
            .collect::<Result<Vec<_>, _>>()?;
        let r = fpgacl_runtime::event::wait_for_events(&events);
        drop(events);
        handle::sweep();
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetEventInfo(
    e: H,
    param: cl_event_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let ev = handle::get::<Event>(e)?;
        if param == CL_EVENT_REFERENCE_COUNT {
            return write_u32(handle::ref_count::<Event>(e)?, size, value, size_ret);
        }
        write_info(ev.info(param), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainEvent(e: H) -> cl_int {
    api(|| handle::retain::<Event>(e))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseEvent(e: H) -> cl_int {
    api(|| handle::release::<Event>(e))
}

#[no_mangle]
pub unsafe extern "C" fn clGetEventProfilingInfo(
    e: H,
    param: cl_profiling_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    api(|| {
        let ev = handle::get::<Event>(e)?;
        let t = ev.profiling_info(param)?;
        write_bytes(&t.to_ne_bytes(), size, value, size_ret)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateUserEvent(c: H, err: *mut cl_int) -> H {
    api_create(err, || {
        let ctx = handle::get::<Context>(c)?;
        Ok(handle::new_handle(Event::new_user(&ctx)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetUserEventStatus(e: H, status: cl_int) -> cl_int {
    api(|| handle::get::<Event>(e)?.set_user_status(status))
}

#[no_mangle]
pub unsafe extern "C" fn clSetEventCallback(
    e: H,
    trigger: cl_int,
    pfn: Option<unsafe extern "C" fn(H, cl_int, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api(|| {
        let ev = handle::get::<Event>(e)?;
        let f = pfn.ok_or(CL_INVALID_VALUE)?;
        let (h, ud) = (e as usize, user_data as usize);
        ev.add_callback(
            trigger,
            // SAFETY: calling the application's callback as OpenCL specifies; the event
            // handle stays valid while the runtime holds the event.
            Box::new(move |status| unsafe { f(h as H, status, ud as *mut c_void) }),
        )
    })
}
