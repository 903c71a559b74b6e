//! Helpers shared by the entry points: panic containment, error returns, argument decoding.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{CLResult, Event};

use crate::handle;

/// Runs the body of an entry point returning `cl_int`: errors become their code and a panic
/// becomes `CL_OUT_OF_HOST_MEMORY` instead of unwinding into C.
pub fn api(f: impl FnOnce() -> CLResult<()>) -> cl_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(code)) => code,
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    }
}

/// [`api`] for a `clEnqueue*` entry point: the virtual host clock stands still during the call
/// (`fpgacl_runtime::clock::host_call`), so emulator overhead is not a host gap.
pub fn api_enqueue(f: impl FnOnce() -> CLResult<()>) -> cl_int {
    let _call = fpgacl_runtime::clock::host_call();
    api(f)
}

/// Runs the body of an entry point that returns an object handle (or NULL) and reports its
/// status through `errcode_ret`.
///
/// # Safety
/// `errcode_ret` is NULL or points to a writable `cl_int`.
pub unsafe fn api_create(
    errcode_ret: *mut cl_int,
    f: impl FnOnce() -> CLResult<*mut c_void>,
) -> *mut c_void {
    let (ptr, code) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(p)) => (p, CL_SUCCESS),
        Ok(Err(code)) => (std::ptr::null_mut(), code),
        Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
    };
    if !errcode_ret.is_null() {
        *errcode_ret = code;
    }
    ptr
}

/// [`api_create`] for a `clEnqueue*` entry point (see [`api_enqueue`]).
///
/// # Safety
/// `errcode_ret` is NULL or points to a writable `cl_int`.
pub unsafe fn api_create_enqueue(
    errcode_ret: *mut cl_int,
    f: impl FnOnce() -> CLResult<*mut c_void>,
) -> *mut c_void {
    let _call = fpgacl_runtime::clock::host_call();
    api_create(errcode_ret, f)
}

/// Converts an event wait list, checking the pointer/count pair and every handle.
///
/// # Safety
/// `list` is NULL or points to `n` handles.
pub unsafe fn wait_list(n: cl_uint, list: *const *mut c_void) -> CLResult<Vec<Arc<Event>>> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let handles = std::slice::from_raw_parts(list, n as usize);
    handles
        .iter()
        .map(|&h| handle::get::<Event>(h).map_err(|_| CL_INVALID_EVENT_WAIT_LIST))
        .collect()
}

/// Stores a new event's handle in `*event` (or drops the event when `event` is NULL).
///
/// # Safety
/// `event` is NULL or a valid pointer.
pub unsafe fn out_event(event: *mut *mut c_void, ev: Arc<Event>) {
    if !event.is_null() {
        *event = handle::new_handle(ev);
    }
}

/// Reads a NUL-terminated C string (`None` for NULL).
///
/// # Safety
/// `s` is NULL or a valid C string.
pub unsafe fn c_str<'a>(s: *const c_char) -> Option<&'a str> {
    if s.is_null() {
        None
    } else {
        Some(CStr::from_ptr(s).to_str().unwrap_or(""))
    }
}

/// Reads build/compile/link options (`""` for NULL); options that are not UTF-8 are refused
/// with `code` (`CL_INVALID_BUILD_OPTIONS` etc.) rather than silently dropped.
///
/// # Safety
/// `s` is NULL or a valid C string.
pub unsafe fn c_options(s: *const c_char, code: cl_int) -> CLResult<String> {
    if s.is_null() {
        return Ok(String::new());
    }
    match CStr::from_ptr(s).to_str() {
        Ok(o) => Ok(o.to_string()),
        Err(_) => {
            eprintln!("fpgacl: build options are not valid UTF-8: refused");
            Err(code)
        }
    }
}

/// Reads a C string that may not be valid UTF-8 (lossy).
///
/// # Safety
/// `s` is a valid C string.
pub unsafe fn c_string_lossy(s: *const c_char) -> String {
    CStr::from_ptr(s).to_string_lossy().into_owned()
}

/// Reads three `size_t`s (origins, regions).
///
/// # Safety
/// `p` is NULL or points to three `size_t`s.
pub unsafe fn triple(p: *const usize) -> CLResult<[usize; 3]> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let s = std::slice::from_raw_parts(p, 3);
    Ok([s[0], s[1], s[2]])
}

/// Reads a 0-terminated property list of pairs (returned with its terminating 0; empty
/// for NULL).
///
/// # Safety
/// `p` is NULL or a 0-terminated list.
pub unsafe fn property_list<T: Copy + Default + PartialEq>(p: *const T) -> CLResult<Vec<T>> {
    let mut out = Vec::new();
    if p.is_null() {
        return Ok(out);
    }
    let mut i = 0;
    loop {
        let key = *p.add(i);
        out.push(key);
        if key == T::default() {
            return Ok(out);
        }
        out.push(*p.add(i + 1));
        i += 2;
        if i > 2048 {
            return Err(CL_INVALID_PROPERTY);
        }
    }
}

/// Reads a C array of handles.
///
/// # Safety
/// `p` points to `n` handles (checked non-NULL by the caller when `n > 0`).
pub unsafe fn handles<'a>(n: cl_uint, p: *const *mut c_void) -> &'a [*mut c_void] {
    if n == 0 || p.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(p, n as usize)
    }
}
