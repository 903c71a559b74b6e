//! Intel FPGA host pipes (`cl_intel_fpga_host_pipe`): the host reads and writes packets of a
//! `clCreatePipe` pipe that a kernel writes or reads, with `clReadPipeIntelFPGA` and
//! `clWritePipeIntelFPGA`. Both are non-blocking, as Intel's are: an empty pipe gives
//! [`CL_PIPE_EMPTY`], a full one [`CL_PIPE_FULL`], and the host retries.
//!
//! The pipe must be host accessible in that direction: created with `CL_MEM_HOST_READ_ONLY`
//! (the host reads, a kernel writes) or `CL_MEM_HOST_WRITE_ONLY` (the host writes, a kernel
//! reads). A pipe created `CL_MEM_HOST_NO_ACCESS` (the default) cannot be used from the host.
//! (Kept with the other Intel FPGA extension functions of the runtime.)

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use fpgacl_device_model::activity::RunGuard;
use fpgacl_device_model::fifo::{FifoOutcome, Waiter};
use fpgacl_device_model::Activity;

use crate::cl::*;
use crate::error::CLResult;
use crate::memory::Mem;

/// `clReadPipeIntelFPGA`: the pipe holds no packet now.
pub const CL_PIPE_EMPTY: cl_int = -1112;
/// `clWritePipeIntelFPGA`: the pipe has no room now.
pub const CL_PIPE_FULL: cl_int = -1111;

/// A waiter context for the host's non-blocking operations (never actually waits).
fn host_waiter<R>(f: impl FnOnce(&Waiter<'_>) -> R) -> R {
    static HOST: OnceLock<RunGuard> = OnceLock::new();
    static NEVER: AtomicBool = AtomicBool::new(false);
    // A private activity registry: the host is not a kernel of any device.
    static ACTIVITY: OnceLock<std::sync::Arc<Activity>> = OnceLock::new();
    let activity = ACTIVITY.get_or_init(Activity::new);
    let guard = HOST.get_or_init(|| activity.register("host", false, [0; 3]));
    let pos = || None;
    f(&Waiter {
        run: guard.state(),
        activity,
        shutdown: &NEVER,
        pos: &pos,
    })
}

fn pipe_of(m: &Mem) -> CLResult<&fpgacl_device_model::PipeFifo> {
    m.pipe_fifo.as_deref().ok_or(CL_INVALID_MEM_OBJECT)
}

/// Reads one packet into `dst` (which must hold the packet size).
pub fn read(m: &Mem, dst: &mut [u8]) -> CLResult<()> {
    let fifo = pipe_of(m)?;
    if m.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    if dst.len() < fifo.elem_size() as usize {
        return Err(CL_INVALID_VALUE);
    }
    match host_waiter(|w| fifo.read(dst, false, w)) {
        FifoOutcome::Done { .. } => Ok(()),
        FifoOutcome::NotReady => {
            // The host polls the pipe (as good as waiting, for the run ledger).
            crate::clock::host_polled();
            Err(CL_PIPE_EMPTY)
        }
        FifoOutcome::Aborted | FifoOutcome::Shutdown => Err(CL_INVALID_MEM_OBJECT),
    }
}

/// Writes one packet from `src` (which must hold the packet size).
pub fn write(m: &Mem, src: &[u8]) -> CLResult<()> {
    let fifo = pipe_of(m)?;
    if m.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    if src.len() < fifo.elem_size() as usize {
        return Err(CL_INVALID_VALUE);
    }
    match host_waiter(|w| fifo.write(src, false, w)) {
        FifoOutcome::Done { .. } => Ok(()),
        FifoOutcome::NotReady => {
            crate::clock::host_polled();
            Err(CL_PIPE_FULL)
        }
        FifoOutcome::Aborted | FifoOutcome::Shutdown => Err(CL_INVALID_MEM_OBJECT),
    }
}

/// The packet size of a pipe (for the C layer, which copies that many bytes).
pub fn packet_size(m: &Mem) -> CLResult<usize> {
    Ok(pipe_of(m)?.elem_size() as usize)
}
