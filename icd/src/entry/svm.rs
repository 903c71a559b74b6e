//! OpenCL 2.x shared virtual memory entry points: the device reports no SVM capabilities, so
//! allocation returns NULL and the commands return `CL_INVALID_OPERATION`.

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{Context, Queue};

use crate::api::api;
use crate::handle;

type H = *mut c_void;

fn no_svm(q: H) -> cl_int {
    api(|| {
        handle::get::<Queue>(q)?;
        Err(CL_INVALID_OPERATION)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSVMAlloc(
    _c: H,
    _flags: cl_bitfield,
    _size: usize,
    _align: cl_uint,
) -> *mut c_void {
    std::ptr::null_mut()
}

#[no_mangle]
pub unsafe extern "C" fn clSVMFree(c: H, _p: *mut c_void) {
    let _ = handle::get::<Context>(c);
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMFree(
    q: H,
    _n: cl_uint,
    _ptrs: *mut *mut c_void,
    _pfn: *mut c_void,
    _ud: *mut c_void,
    _ne: cl_uint,
    _wait: *const H,
    _e: *mut H,
) -> cl_int {
    no_svm(q)
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMemcpy(
    q: H,
    _b: cl_bool,
    _dst: *mut c_void,
    _src: *const c_void,
    _size: usize,
    _ne: cl_uint,
    _wait: *const H,
    _e: *mut H,
) -> cl_int {
    no_svm(q)
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMemFill(
    q: H,
    _p: *mut c_void,
    _pat: *const c_void,
    _ps: usize,
    _size: usize,
    _ne: cl_uint,
    _wait: *const H,
    _e: *mut H,
) -> cl_int {
    no_svm(q)
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMap(
    q: H,
    _b: cl_bool,
    _f: cl_map_flags,
    _p: *mut c_void,
    _size: usize,
    _ne: cl_uint,
    _wait: *const H,
    _e: *mut H,
) -> cl_int {
    no_svm(q)
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMUnmap(
    q: H,
    _p: *mut c_void,
    _ne: cl_uint,
    _wait: *const H,
    _e: *mut H,
) -> cl_int {
    no_svm(q)
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMigrateMem(
    q: H,
    _n: cl_uint,
    _ptrs: *const *const c_void,
    _sizes: *const usize,
    _f: cl_mem_migration_flags,
    _ne: cl_uint,
    _wait: *const H,
    _e: *mut H,
) -> cl_int {
    no_svm(q)
}
