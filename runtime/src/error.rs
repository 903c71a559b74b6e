//! The runtime's result type: every fallible operation returns the OpenCL error code the
//! specification names for the failure.

use crate::cl::cl_int;

/// Result of a runtime operation; the error is an OpenCL error code (`CL_INVALID_VALUE`, ...).
pub type CLResult<T> = Result<T, cl_int>;

/// Returns `Err(code)` unless `cond` holds.
#[inline]
pub fn check(cond: bool, code: cl_int) -> CLResult<()> {
    if cond {
        Ok(())
    } else {
        Err(code)
    }
}
