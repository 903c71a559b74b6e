//! The one helper behind every `clGet*Info`: copies a value out following the OpenCL rules
//! for `param_value_size`, `param_value` and `param_value_size_ret`.

use std::ffi::c_void;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{CLResult, InfoValue, ObjRef};

use crate::handle;

/// The handle of an object named by an info query.
pub fn obj_handle(o: &ObjRef) -> *mut c_void {
    match o {
        ObjRef::Platform => handle::platform_handle(),
        ObjRef::Device(d) => handle::device_handle(d),
        ObjRef::Context(c) => handle::handle_of(c),
        ObjRef::Queue(q) => handle::handle_of(q),
        ObjRef::Mem(m) => handle::handle_of(m),
        ObjRef::Program(p) => handle::handle_of(p),
        ObjRef::Event(e) => handle::handle_of(e),
    }
}

fn ptr_bytes(ptrs: &[*mut c_void]) -> Vec<u8> {
    ptrs.iter()
        .flat_map(|p| (*p as usize).to_ne_bytes())
        .collect()
}

/// Copies `bytes` out: with a non-NULL `param_value`, `param_value_size` must hold all of it
/// (`CL_INVALID_VALUE` otherwise); `param_value_size_ret` (if not NULL) receives its size.
///
/// # Safety
/// `param_value` is NULL or points to `param_value_size` writable bytes; `size_ret` is NULL
/// or valid.
pub unsafe fn write_bytes(
    bytes: &[u8],
    param_value_size: usize,
    param_value: *mut c_void,
    size_ret: *mut usize,
) -> CLResult<()> {
    if !param_value.is_null() {
        if param_value_size < bytes.len() {
            return Err(CL_INVALID_VALUE);
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), param_value as *mut u8, bytes.len());
    }
    if !size_ret.is_null() {
        *size_ret = bytes.len();
    }
    Ok(())
}

/// Writes an info value (see [`write_bytes`]).
///
/// # Safety
/// As for [`write_bytes`]; for `CL_PROGRAM_BINARIES` each non-NULL pointer in the caller's
/// array points to a buffer of the size `CL_PROGRAM_BINARY_SIZES` reported.
pub unsafe fn write_info(
    value: CLResult<InfoValue>,
    param_value_size: usize,
    param_value: *mut c_void,
    size_ret: *mut usize,
) -> CLResult<()> {
    match value? {
        InfoValue::Bytes(b) => write_bytes(&b, param_value_size, param_value, size_ret),
        InfoValue::Object(o) => {
            let p = o.as_ref().map(obj_handle).unwrap_or(std::ptr::null_mut());
            write_bytes(&ptr_bytes(&[p]), param_value_size, param_value, size_ret)
        }
        InfoValue::Objects(list) => {
            let ptrs: Vec<_> = list.iter().map(obj_handle).collect();
            write_bytes(&ptr_bytes(&ptrs), param_value_size, param_value, size_ret)
        }
        InfoValue::Binaries(bins) => {
            let need = bins.len() * std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < need {
                    return Err(CL_INVALID_VALUE);
                }
                let dsts = std::slice::from_raw_parts(param_value as *const *mut u8, bins.len());
                for (dst, bin) in dsts.iter().zip(&bins) {
                    if !dst.is_null() {
                        std::ptr::copy_nonoverlapping(bin.as_ptr(), *dst, bin.len());
                    }
                }
            }
            if !size_ret.is_null() {
                *size_ret = need;
            }
            Ok(())
        }
    }
}

/// Writes a reference count.
///
/// # Safety
/// As for [`write_bytes`].
pub unsafe fn write_u32(
    v: u32,
    param_value_size: usize,
    param_value: *mut c_void,
    size_ret: *mut usize,
) -> CLResult<()> {
    write_bytes(&v.to_ne_bytes(), param_value_size, param_value, size_ret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_rules() {
        let v = InfoValue::uint(7);
        let mut out = 0u32;
        let mut ret = 0usize;
        unsafe {
            // size query only
            write_info(Ok(v.clone()), 0, std::ptr::null_mut(), &mut ret).unwrap();
            assert_eq!(ret, 4);
            // too small
            assert_eq!(
                write_info(
                    Ok(v.clone()),
                    2,
                    &mut out as *mut u32 as *mut c_void,
                    &mut ret
                ),
                Err(CL_INVALID_VALUE)
            );
            // exact
            write_info(
                Ok(v.clone()),
                4,
                &mut out as *mut u32 as *mut c_void,
                std::ptr::null_mut(),
            )
            .unwrap();
            assert_eq!(out, 7);
            // larger buffer is fine, size_ret gives the real size
            let mut big = [0u8; 16];
            write_info(
                Ok(InfoValue::string("ab")),
                16,
                big.as_mut_ptr() as *mut c_void,
                &mut ret,
            )
            .unwrap();
            assert_eq!((ret, &big[..3]), (3, &b"ab\0"[..]));
            // errors pass through
            assert_eq!(
                write_info(Err(CL_INVALID_VALUE), 0, std::ptr::null_mut(), &mut ret),
                Err(CL_INVALID_VALUE)
            );
        }
    }
}
