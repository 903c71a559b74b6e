//! Device memory: the bytes behind a `cl_mem` buffer.
//!
//! A [`DeviceMemory`] is a fixed-size, zero-initialised, 64-byte-aligned byte array shared between
//! the runtime (host reads, writes, copies, maps) and running kernels. Like memory on a real
//! accelerator it has no internal locking: the runtime orders host commands and kernels with
//! events, and kernels that race on the same bytes get unspecified (but memory-safe) results,
//! because every access goes through the bounds-checked raw-pointer methods here.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::cell::UnsafeCell;
use std::ptr::NonNull;

/// Alignment of every allocation (`CL_DEVICE_MEM_BASE_ADDR_ALIGN` is 512 bits).
pub const ALIGN: usize = 64;

/// A device-side allocation.
pub struct DeviceMemory {
    ptr: NonNull<u8>,
    len: usize,
    _marker: UnsafeCell<()>,
}

// SAFETY: the memory is plain bytes; all access is through raw pointers with explicit bounds
// checks, and concurrent unsynchronised access has the same meaning as on a device (a data race
// on bytes, never a use-after-free: the allocation lives as long as the `DeviceMemory`).
unsafe impl Send for DeviceMemory {}
unsafe impl Sync for DeviceMemory {}

impl DeviceMemory {
    /// Allocates `len` zeroed bytes. Returns `None` when the allocation fails (the caller maps
    /// this to `CL_MEM_OBJECT_ALLOCATION_FAILURE` / `CL_OUT_OF_RESOURCES`).
    pub fn new(len: usize) -> Option<Self> {
        let layout = Layout::from_size_align(len.max(1), ALIGN).ok()?;
        // SAFETY: layout has non-zero size.
        let ptr = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        Some(DeviceMemory {
            ptr,
            len,
            _marker: UnsafeCell::new(()),
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Base pointer, for the executor's hot path (it checks bounds itself against [`len`]).
    ///
    /// [`len`]: DeviceMemory::len
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    fn check(&self, offset: usize, n: usize) -> Option<()> {
        (offset.checked_add(n)? <= self.len).then_some(())
    }

    /// Copies `dst.len()` bytes starting at `offset` out of device memory.
    pub fn read(&self, offset: usize, dst: &mut [u8]) -> Option<()> {
        self.check(offset, dst.len())?;
        // SAFETY: bounds checked above; regions cannot overlap (dst is host memory).
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.ptr.as_ptr().add(offset),
                dst.as_mut_ptr(),
                dst.len(),
            )
        };
        Some(())
    }

    /// Copies `src` into device memory at `offset`.
    pub fn write(&self, offset: usize, src: &[u8]) -> Option<()> {
        self.check(offset, src.len())?;
        // SAFETY: bounds checked above.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.as_ptr().add(offset), src.len())
        };
        Some(())
    }

    /// Copies `n` bytes from `src` at `src_offset` to `self` at `dst_offset` (the two may be the
    /// same allocation; overlapping ranges are copied as if through a temporary).
    pub fn copy_from(
        &self,
        dst_offset: usize,
        src: &DeviceMemory,
        src_offset: usize,
        n: usize,
    ) -> Option<()> {
        self.check(dst_offset, n)?;
        src.check(src_offset, n)?;
        // SAFETY: both ranges bounds checked; `copy` handles overlap.
        unsafe {
            std::ptr::copy(
                src.ptr.as_ptr().add(src_offset),
                self.ptr.as_ptr().add(dst_offset),
                n,
            )
        };
        Some(())
    }

    /// Fills `n` bytes at `offset` with repetitions of `pattern`.
    pub fn fill(&self, offset: usize, n: usize, pattern: &[u8]) -> Option<()> {
        self.check(offset, n)?;
        if pattern.is_empty() || !n.is_multiple_of(pattern.len()) {
            return None;
        }
        for i in (0..n).step_by(pattern.len()) {
            self.write(offset + i, pattern)?;
        }
        Some(())
    }
}

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        let layout = Layout::from_size_align(self.len.max(1), ALIGN)
            .expect("layout was valid at allocation");
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr.as_ptr(), layout) };
    }
}

impl std::fmt::Debug for DeviceMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceMemory")
            .field("len", &self.len)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_write_copy_fill_with_bounds() {
        let a = DeviceMemory::new(16).unwrap();
        assert_eq!(a.as_ptr() as usize % ALIGN, 0);
        a.write(4, &[1, 2, 3, 4]).unwrap();
        let mut out = [0u8; 8];
        a.read(0, &mut out).unwrap();
        assert_eq!(out, [0, 0, 0, 0, 1, 2, 3, 4]);
        assert!(a.write(14, &[1, 2, 3]).is_none());
        assert!(a.read(usize::MAX, &mut out).is_none());
        let b = DeviceMemory::new(8).unwrap();
        b.copy_from(0, &a, 4, 4).unwrap();
        b.fill(4, 4, &[9, 8]).unwrap();
        b.read(0, &mut out).unwrap();
        assert_eq!(out, [1, 2, 3, 4, 9, 8, 9, 8]);
        assert!(b.fill(0, 3, &[1, 2]).is_none());
    }
}
