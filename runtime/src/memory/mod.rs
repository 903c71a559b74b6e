//! Memory objects: buffers, sub-buffers, pipes and images (`image`: images and samplers).
//!
//! Buffer bytes live in an `fpgacl_device_model::DeviceMemory` shared by a buffer and its
//! sub-buffers (a sub-buffer is a window `offset..offset+size` into its parent's storage).
//! `CL_MEM_USE_HOST_PTR` buffers keep a device copy that is synchronised with the host memory
//! when they are created, mapped and unmapped; every other buffer is mapped in place.

pub mod image;
pub mod ops;
pub mod rect;

use std::sync::Arc;

use fpgacl_device_model::{DeviceMemory, PipeFifo};
use parking_lot::Mutex;

use crate::cl::*;
use crate::context::Context;
use crate::device::{MEM_BASE_ADDR_ALIGN_BITS, PIPE_MAX_PACKET_SIZE};
use crate::error::CLResult;
use crate::info::{InfoValue, ObjRef};

/// Flag bits `clCreateBuffer` accepts.
pub const VALID_BUFFER_FLAGS: cl_mem_flags = CL_MEM_READ_WRITE
    | CL_MEM_WRITE_ONLY
    | CL_MEM_READ_ONLY
    | CL_MEM_USE_HOST_PTR
    | CL_MEM_ALLOC_HOST_PTR
    | CL_MEM_COPY_HOST_PTR
    | CL_MEM_HOST_WRITE_ONLY
    | CL_MEM_HOST_READ_ONLY
    | CL_MEM_HOST_NO_ACCESS
    | CL_MEM_BANK_MASK_INTELFPGA;
const ACCESS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const HOST_PTR_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// What kind of memory object this is.
pub enum MemKind {
    Buffer,
    SubBuffer {
        parent: Arc<Mem>,
        origin: usize,
    },
    /// A pipe: a FIFO of `max_packets` packets of `packet_size` bytes (see `pipe_fifo`).
    Pipe {
        packet_size: u32,
        max_packets: u32,
    },
    /// An image (`image.rs`): the storage holds the device model's image header, then the
    /// pixels; `offset` skips the header.
    Image(image::ImageInfo),
}

/// One active mapping (`clEnqueueMapBuffer` not yet unmapped).
#[derive(Clone, Copy, Debug)]
pub struct Mapping {
    /// The pointer returned to the host.
    pub ptr: usize,
    /// Offset and size within the memory object.
    pub offset: usize,
    pub size: usize,
    /// Mapped with `CL_MAP_WRITE` or `CL_MAP_WRITE_INVALIDATE_REGION`.
    pub write: bool,
    /// A mapped region of a `CL_MEM_USE_HOST_PTR` image: its rows in the host memory, written
    /// back at unmap (a buffer's mapping is one contiguous range).
    pub image_rows: Option<image::HostRows>,
}

/// A memory object.
pub struct Mem {
    pub context: Arc<Context>,
    pub kind: MemKind,
    /// Flags as given (`CL_MEM_READ_WRITE` for 0) or, for a sub-buffer, completed with the
    /// parent's; including the bank bits.
    pub flags: cl_mem_flags,
    pub size: usize,
    /// The host pointer of a `CL_MEM_USE_HOST_PTR` object (0 otherwise).
    pub host_ptr: usize,
    /// Global memory bank requested with bits 16..=19 of the flags (0 = automatic).
    pub bank: u32,
    storage: Option<Arc<DeviceMemory>>,
    /// Offset of this object's bytes within `storage`.
    offset: usize,
    maps: Mutex<Vec<Mapping>>,
    destructors: Mutex<Vec<Box<dyn FnOnce() + Send>>>,
    /// The device model's FIFO behind a pipe (`None` for buffers).
    pub pipe_fifo: Option<Arc<PipeFifo>>,
}

impl std::fmt::Debug for Mem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mem")
            .field("flags", &self.flags)
            .field("size", &self.size)
            .finish()
    }
}

pub(crate) fn check_flags(flags: cl_mem_flags) -> CLResult<()> {
    if flags & !VALID_BUFFER_FLAGS != 0
        || (flags & ACCESS).count_ones() > 1
        || (flags & HOST_ACCESS).count_ones() > 1
        || (flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// Sub-buffer origin alignment in bytes.
pub const SUB_BUFFER_ALIGN: usize = (MEM_BASE_ADDR_ALIGN_BITS / 8) as usize;

impl Mem {
    /// `clCreateBuffer`. `host_ptr` is the caller's pointer (0 for NULL); with
    /// `CL_MEM_COPY_HOST_PTR` or `CL_MEM_USE_HOST_PTR` it must point to `size` readable bytes.
    pub fn new_buffer(
        context: &Arc<Context>,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: usize,
    ) -> CLResult<Arc<Self>> {
        check_flags(flags)?;
        let max = context
            .devices
            .iter()
            .map(|d| d.max_alloc())
            .min()
            .unwrap_or(0);
        if size == 0 || size as u64 > max {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
        if wants_ptr != (host_ptr != 0) {
            return Err(CL_INVALID_HOST_PTR);
        }
        let storage = DeviceMemory::new(size).ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        if wants_ptr {
            // SAFETY: the caller guarantees host_ptr points to `size` readable bytes.
            let src = unsafe { std::slice::from_raw_parts(host_ptr as *const u8, size) };
            storage
                .write(0, src)
                .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        }
        // Flags are recorded as given; 0 means the default, CL_MEM_READ_WRITE.
        let flags = if flags == 0 { CL_MEM_READ_WRITE } else { flags };
        Ok(Arc::new(Mem {
            context: context.clone(),
            kind: MemKind::Buffer,
            flags,
            size,
            host_ptr: if flags & CL_MEM_USE_HOST_PTR != 0 {
                host_ptr
            } else {
                0
            },
            bank: ((flags & CL_MEM_BANK_MASK_INTELFPGA) >> CL_MEM_BANK_SHIFT_INTELFPGA) as u32,
            storage: Some(Arc::new(storage)),
            offset: 0,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            pipe_fifo: None,
        }))
    }

    /// `clCreateSubBuffer` with `CL_BUFFER_CREATE_TYPE_REGION`.
    pub fn new_sub_buffer(
        parent: &Arc<Mem>,
        flags: cl_mem_flags,
        origin: usize,
        size: usize,
    ) -> CLResult<Arc<Self>> {
        if !matches!(parent.kind, MemKind::Buffer) {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        if flags & !(ACCESS | HOST_ACCESS) != 0
            || (flags & ACCESS).count_ones() > 1
            || (flags & HOST_ACCESS).count_ones() > 1
        {
            return Err(CL_INVALID_VALUE);
        }
        let pf = parent.flags;
        let widen = (pf & CL_MEM_WRITE_ONLY != 0
            && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
            || (pf & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
            || (pf & CL_MEM_HOST_WRITE_ONLY != 0 && flags & CL_MEM_HOST_READ_ONLY != 0)
            || (pf & CL_MEM_HOST_READ_ONLY != 0 && flags & CL_MEM_HOST_WRITE_ONLY != 0)
            || (pf & CL_MEM_HOST_NO_ACCESS != 0
                && flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0);
        if widen {
            return Err(CL_INVALID_VALUE);
        }
        if size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        match origin.checked_add(size) {
            Some(end) if end <= parent.size => {}
            _ => return Err(CL_INVALID_VALUE),
        }
        if origin % SUB_BUFFER_ALIGN != 0 {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let mut f = flags;
        if f & ACCESS == 0 {
            f |= pf & ACCESS;
        }
        if f & HOST_ACCESS == 0 {
            f |= pf & HOST_ACCESS;
        }
        f |= pf & (HOST_PTR_FLAGS | CL_MEM_BANK_MASK_INTELFPGA);
        Ok(Arc::new(Mem {
            context: parent.context.clone(),
            kind: MemKind::SubBuffer {
                parent: parent.clone(),
                origin,
            },
            flags: f,
            size,
            host_ptr: if parent.host_ptr != 0 {
                parent.host_ptr + origin
            } else {
                0
            },
            bank: parent.bank,
            storage: parent.storage.clone(),
            offset: parent.offset + origin,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            pipe_fifo: None,
        }))
    }

    /// `clCreatePipe`.
    pub fn new_pipe(
        context: &Arc<Context>,
        flags: cl_mem_flags,
        packet_size: u32,
        max_packets: u32,
    ) -> CLResult<Arc<Self>> {
        // CL_MEM_HOST_READ_ONLY / CL_MEM_HOST_WRITE_ONLY make an Intel host pipe
        // (cl_intel_fpga_host_pipe), read or written with clReadPipeIntelFPGA /
        // clWritePipeIntelFPGA.
        let host = CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS;
        if flags & !(CL_MEM_READ_WRITE | host) != 0 || (flags & host).count_ones() > 1 {
            return Err(CL_INVALID_VALUE);
        }
        if packet_size == 0 || packet_size > PIPE_MAX_PACKET_SIZE || max_packets == 0 {
            return Err(CL_INVALID_PIPE_SIZE);
        }
        let size = packet_size as u64 * max_packets as u64;
        let max = context
            .devices
            .iter()
            .map(|d| d.max_alloc())
            .min()
            .unwrap_or(0);
        if size > max {
            return Err(CL_INVALID_PIPE_SIZE);
        }
        let flags = if flags == 0 {
            CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS
        } else {
            flags
        };
        Ok(Arc::new(Mem {
            context: context.clone(),
            kind: MemKind::Pipe {
                packet_size,
                max_packets,
            },
            flags,
            size: size as usize,
            host_ptr: 0,
            bank: 0,
            storage: None,
            offset: 0,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            pipe_fifo: Some(Arc::new(PipeFifo::new("pipe", packet_size, max_packets))),
        }))
    }

    /// Whether this is a pipe.
    pub fn is_pipe(&self) -> bool {
        matches!(self.kind, MemKind::Pipe { .. })
    }

    /// The device bytes of a buffer and the offset of this object within them (`None` for a
    /// pipe).
    pub fn storage(&self) -> Option<(&Arc<DeviceMemory>, usize)> {
        self.storage.as_ref().map(|s| (s, self.offset))
    }

    /// Address of byte `offset` of this object's device storage (buffers only).
    pub fn device_ptr(&self, offset: usize) -> Option<usize> {
        self.storage
            .as_ref()
            .map(|s| s.as_ptr() as usize + self.offset + offset)
    }

    /// The buffer at the root of this object (itself, or a sub-buffer's parent).
    pub fn root(self: &Arc<Self>) -> Arc<Mem> {
        match &self.kind {
            MemKind::SubBuffer { parent, .. } => parent.clone(),
            _ => self.clone(),
        }
    }

    /// Offset of this object in its root buffer.
    pub fn root_offset(&self) -> usize {
        match &self.kind {
            MemKind::SubBuffer { origin, .. } => *origin,
            _ => 0,
        }
    }

    /// Whether host reads are forbidden (`CL_MEM_HOST_WRITE_ONLY`/`CL_MEM_HOST_NO_ACCESS`).
    pub fn host_cannot_read(&self) -> bool {
        self.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0
    }

    /// Whether host writes are forbidden (`CL_MEM_HOST_READ_ONLY`/`CL_MEM_HOST_NO_ACCESS`).
    pub fn host_cannot_write(&self) -> bool {
        self.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0
    }

    /// Number of active mappings.
    pub fn map_count(&self) -> usize {
        self.maps.lock().len()
    }

    pub(crate) fn add_mapping(&self, m: Mapping) {
        self.maps.lock().push(m);
    }

    /// Removes and returns the mapping of `ptr` (the most recent one if mapped twice).
    pub(crate) fn take_mapping(&self, ptr: usize) -> Option<Mapping> {
        let mut maps = self.maps.lock();
        let i = maps.iter().rposition(|m| m.ptr == ptr)?;
        Some(maps.remove(i))
    }

    /// `clSetMemObjectDestructorCallback`: `f` runs when the object is deleted (callbacks run
    /// in reverse order of registration).
    pub fn add_destructor(&self, f: Box<dyn FnOnce() + Send>) {
        self.destructors.lock().push(f);
    }

    /// `clGetMemObjectInfo` (without the reference count).
    pub fn info(&self, param: cl_mem_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_MEM_TYPE => InfoValue::uint(match &self.kind {
                MemKind::Pipe { .. } => CL_MEM_OBJECT_PIPE,
                MemKind::Image(i) => i.header.kind,
                _ => CL_MEM_OBJECT_BUFFER,
            }),
            CL_MEM_FLAGS => InfoValue::ulong(self.flags),
            CL_MEM_SIZE => InfoValue::size(self.size),
            CL_MEM_HOST_PTR => InfoValue::ptr(self.host_ptr),
            CL_MEM_MAP_COUNT => InfoValue::uint(self.map_count() as u32),
            CL_MEM_CONTEXT => InfoValue::object(ObjRef::Context(self.context.clone())),
            CL_MEM_ASSOCIATED_MEMOBJECT => match &self.kind {
                MemKind::SubBuffer { parent, .. } => InfoValue::object(ObjRef::Mem(parent.clone())),
                _ => InfoValue::null_object(),
            },
            CL_MEM_OFFSET => InfoValue::size(self.root_offset()),
            CL_MEM_USES_SVM_POINTER => InfoValue::bool(false),
            _ => return Err(CL_INVALID_VALUE),
        })
    }

    /// `clGetPipeInfo`.
    pub fn pipe_info(&self, param: cl_pipe_info) -> CLResult<InfoValue> {
        let MemKind::Pipe {
            packet_size,
            max_packets,
        } = self.kind
        else {
            return Err(CL_INVALID_MEM_OBJECT);
        };
        Ok(match param {
            CL_PIPE_PACKET_SIZE => InfoValue::uint(packet_size),
            CL_PIPE_MAX_PACKETS => InfoValue::uint(max_packets),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

impl Drop for Mem {
    fn drop(&mut self) {
        let cbs = std::mem::take(&mut *self.destructors.lock());
        for cb in cbs.into_iter().rev() {
            cb();
        }
    }
}
