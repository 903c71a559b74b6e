//! Image memory objects and samplers (OpenCL 1.2 5.3 and 5.5): creation with the
//! specification's validation, `clGetImageInfo`, `clGetSupportedImageFormats`, and the image
//! commands (read, write, copy, fill, map, copy to and from buffers).
//!
//! An image's device memory is the device model's layout (`fpgacl_device_model::image`): a
//! header, then the pixels tightly packed. The `Mem` of an image addresses the pixels (its
//! storage offset is the header size, its size the pixel bytes), so the byte-moving helpers of
//! buffers work on it unchanged; a kernel argument binds the whole allocation, header included.

use std::sync::Arc;

use fpgacl_device_model::image::{
    self as im, encode_pixel, Family, ImageHeader, Texel, HEADER_BYTES,
};
use fpgacl_device_model::DeviceMemory;
use parking_lot::Mutex;

use crate::cl::*;
use crate::context::Context;
use crate::error::{check, CLResult};
use crate::event::Event;
use crate::info::{InfoValue, ObjRef};
use crate::memory::ops::{self, finish_blocking};
use crate::memory::rect::{rects_overlap, RectSide};
use crate::memory::{check_flags, Mapping, Mem, MemKind};
use crate::queue::{report_duration, CommandOrder, Queue};

/// The device's image limits: what Intel's FPGA runtime reports when built with image support
/// (`ACL_SUPPORT_IMAGES`, `src/acl_device.cpp` of intel/fpga-runtime-for-opencl: 2D images of
/// 16384, 3D of 2048, arrays of 2048, 1D buffers of 65536, 128 read and write image
/// arguments, 32 samplers), each at or above the OpenCL 1.2 full-profile minimum (table 4.3).
pub const IMAGE2D_MAX_WIDTH: usize = 16384;
pub const IMAGE2D_MAX_HEIGHT: usize = 16384;
pub const IMAGE3D_MAX_WIDTH: usize = 2048;
pub const IMAGE3D_MAX_HEIGHT: usize = 2048;
pub const IMAGE3D_MAX_DEPTH: usize = 2048;
pub const IMAGE_MAX_BUFFER_SIZE: usize = 65536;
pub const IMAGE_MAX_ARRAY_SIZE: usize = 2048;
pub const MAX_READ_IMAGE_ARGS: u32 = fpgacl_kernel_compiler::ir::DEVICE_MAX_IMAGE_ARGS;
pub const MAX_WRITE_IMAGE_ARGS: u32 = fpgacl_kernel_compiler::ir::DEVICE_MAX_IMAGE_ARGS;
pub const MAX_SAMPLERS: u32 = 32;

/// `cl_image_format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageFormat {
    pub order: u32,
    pub dtype: u32,
}

/// `cl_image_desc` as the host gives it (OpenCL 1.2 layout without the union).
#[derive(Clone, Copy, Debug, Default)]
pub struct ImageDesc {
    pub image_type: u32,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub num_mip_levels: u32,
    pub num_samples: u32,
    /// `buffer` (a `cl_mem` handle value; must be 0: 1D buffer images are not supported).
    pub buffer: usize,
}

/// What an image `Mem` knows beyond a buffer.
#[derive(Clone, Copy, Debug)]
pub struct ImageInfo {
    pub header: ImageHeader,
    pub format: ImageFormat,
    /// Array size as given (0 for non-arrays).
    pub array_size: usize,
    /// A `CL_MEM_USE_HOST_PTR` image's host memory and its pitches (row; slice, or layer for
    /// a 1D array): mapping such an image returns a pointer into it, filled with the image's
    /// latest bits, and unmapping a write mapping copies it back (OpenCL 1.2 5.4.2).
    pub host: Option<(usize, usize, usize)>,
}

/// The rows of a mapped image region in the host memory of a `CL_MEM_USE_HOST_PTR` image.
#[derive(Clone, Copy, Debug)]
pub struct HostRows {
    dev: RectSide,
    host: RectSide,
    base: usize,
    region: [usize; 3],
}

impl HostRows {
    /// Copies the region between the device copy and the host memory (`to_device`: at unmap).
    pub fn copy(&self, mem: &Mem, to_device: bool) -> CLResult<()> {
        ops::copy_host_rect(mem, self.dev, self.base, self.host, self.region, to_device)
    }
}

impl ImageInfo {
    fn es(&self) -> usize {
        self.header.elem_size() as usize
    }
    fn row_pitch(&self) -> usize {
        self.header.row_pitch() as usize
    }
    fn slice_pitch(&self) -> usize {
        self.header.slice_pitch() as usize
    }
}

/// The image types and formats the device supports (`clGetSupportedImageFormats`): every
/// supported format for every image type except 1D buffer images.
pub fn supported_formats(image_type: u32) -> Vec<ImageFormat> {
    if image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
        return Vec::new();
    }
    im::supported_formats()
        .into_iter()
        .map(|(order, dtype)| ImageFormat { order, dtype })
        .collect()
}

/// Image types `clCreateImage` knows.
pub fn is_image_type(t: u32) -> bool {
    matches!(
        t,
        CL_MEM_OBJECT_IMAGE1D
            | CL_MEM_OBJECT_IMAGE1D_BUFFER
            | CL_MEM_OBJECT_IMAGE1D_ARRAY
            | CL_MEM_OBJECT_IMAGE2D
            | CL_MEM_OBJECT_IMAGE2D_ARRAY
            | CL_MEM_OBJECT_IMAGE3D
    )
}

impl Mem {
    /// `clCreateImage` (and `clCreateImage2D`/`3D`). `format`/`desc` `None` are NULL
    /// pointers; `host_ptr` 0 is NULL.
    pub fn new_image(
        context: &Arc<Context>,
        flags: cl_mem_flags,
        format: Option<ImageFormat>,
        desc: Option<ImageDesc>,
        host_ptr: usize,
    ) -> CLResult<Arc<Self>> {
        check_flags(flags)?;
        check(flags & CL_MEM_BANK_MASK_INTELFPGA == 0, CL_INVALID_VALUE)?;
        let f = format.ok_or(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?;
        check(
            im::valid_format(f.order, f.dtype),
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        )?;
        let d = desc.ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
        check(is_image_type(d.image_type), CL_INVALID_IMAGE_DESCRIPTOR)?;
        check(
            d.num_mip_levels == 0 && d.num_samples == 0,
            CL_INVALID_IMAGE_DESCRIPTOR,
        )?;
        let t = d.image_type;
        check(
            (d.buffer != 0) == (t == CL_MEM_OBJECT_IMAGE1D_BUFFER),
            CL_INVALID_IMAGE_DESCRIPTOR,
        )?;
        // The sizes each type uses must be at least 1 (OpenCL 1.2 5.3.1.2).
        let (w, h, dd, arr) = (d.width, d.height, d.depth, d.array_size);
        let uses_h = matches!(
            t,
            CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
        );
        let uses_arr = matches!(t, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY);
        check(
            w > 0
                && (!uses_h || h > 0)
                && (t != CL_MEM_OBJECT_IMAGE3D || dd > 0)
                && (!uses_arr || arr > 0),
            CL_INVALID_IMAGE_DESCRIPTOR,
        )?;
        // Pitches: only with a host pointer; at least the packed size and a multiple of the
        // element size (row) or row pitch (slice).
        let es = im::element_size(f.order, f.dtype).unwrap_or(0) as usize;
        let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
        check(
            host_ptr != 0 || (d.row_pitch == 0 && d.slice_pitch == 0),
            CL_INVALID_IMAGE_DESCRIPTOR,
        )?;
        // Unsupported formats and image types are known only now that the descriptors are
        // valid.
        check(
            supported_formats(t)
                .iter()
                .any(|s| s.order == f.order && s.dtype == f.dtype),
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
        )?;
        let (max_w, max_h, max_d) = match t {
            CL_MEM_OBJECT_IMAGE3D => (IMAGE3D_MAX_WIDTH, IMAGE3D_MAX_HEIGHT, IMAGE3D_MAX_DEPTH),
            CL_MEM_OBJECT_IMAGE1D_BUFFER => (IMAGE_MAX_BUFFER_SIZE, 1, 1),
            _ => (IMAGE2D_MAX_WIDTH, IMAGE2D_MAX_HEIGHT, 1),
        };
        let (hh, ddd, a) = (
            if uses_h { h } else { 1 },
            if t == CL_MEM_OBJECT_IMAGE3D { dd } else { 1 },
            if uses_arr { arr } else { 1 },
        );
        check(
            w <= max_w && hh <= max_h && ddd <= max_d && a <= IMAGE_MAX_ARRAY_SIZE,
            CL_INVALID_IMAGE_SIZE,
        )?;
        // Device layout (see the device model): a 1D array keeps its layers as rows, a 2D
        // array as slices.
        let header = ImageHeader {
            kind: t,
            order: f.order,
            dtype: f.dtype,
            width: w as u64,
            height: if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
                a
            } else {
                hh
            } as u64,
            depth: if t == CL_MEM_OBJECT_IMAGE2D_ARRAY {
                a
            } else {
                ddd
            } as u64,
        };
        let max = context
            .devices
            .iter()
            .map(|d| d.max_alloc())
            .min()
            .unwrap_or(0);
        check(header.pixel_bytes() <= max, CL_INVALID_IMAGE_SIZE)?;
        let rows = (header.height * header.depth) as usize;
        let packed_row = w * es;
        let host_rp = if d.row_pitch == 0 {
            packed_row
        } else {
            d.row_pitch
        };
        check(
            host_rp >= packed_row && host_rp % es.max(1) == 0,
            CL_INVALID_IMAGE_DESCRIPTOR,
        )?;
        // The host's step between slices (3D, 2D array) or layers (1D array).
        let layer_rows = if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            1
        } else {
            hh
        };
        let min_sp = host_rp * layer_rows;
        let host_sp = if d.slice_pitch == 0 {
            min_sp
        } else {
            d.slice_pitch
        };
        if matches!(
            t,
            CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE1D_ARRAY
        ) {
            check(
                host_sp >= min_sp && host_sp % host_rp == 0,
                CL_INVALID_IMAGE_DESCRIPTOR,
            )?;
        }
        check(wants_ptr == (host_ptr != 0), CL_INVALID_HOST_PTR)?;
        let storage = DeviceMemory::new(header.total_bytes() as usize)
            .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        storage
            .write(0, &header.encode())
            .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        if wants_ptr {
            // Rows of the host image, at its pitches, into the packed device rows.
            let slices = rows / layer_rows.max(1);
            for s in 0..slices {
                for r in 0..layer_rows {
                    let src = host_ptr + s * host_sp + r * host_rp;
                    // SAFETY: the caller guarantees host_ptr points to the whole host image.
                    let row = unsafe { std::slice::from_raw_parts(src as *const u8, packed_row) };
                    let dst = HEADER_BYTES + (s * layer_rows + r) * packed_row;
                    storage
                        .write(dst, row)
                        .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
                }
            }
        }
        let flags = if flags == 0 { CL_MEM_READ_WRITE } else { flags };
        Ok(Arc::new(Mem {
            context: context.clone(),
            kind: MemKind::Image(ImageInfo {
                header,
                format: f,
                array_size: if uses_arr { a } else { 0 },
                host: (flags & CL_MEM_USE_HOST_PTR != 0).then_some((host_ptr, host_rp, host_sp)),
            }),
            flags,
            size: header.pixel_bytes() as usize,
            // A CL_MEM_USE_HOST_PTR image keeps a device copy; its host memory (`ImageInfo::host`)
            // is brought up to date when a region is mapped, and written back at unmap.
            host_ptr: 0,
            bank: 0,
            storage: Some(Arc::new(storage)),
            offset: HEADER_BYTES,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            pipe_fifo: None,
        }))
    }

    /// The image description of an image (`None` for buffers and pipes).
    pub fn image(&self) -> Option<&ImageInfo> {
        match &self.kind {
            MemKind::Image(i) => Some(i),
            _ => None,
        }
    }

    /// The whole allocation of an image, header included: what a kernel argument binds.
    pub fn image_storage(&self) -> Option<&Arc<DeviceMemory>> {
        self.image().and(self.storage.as_ref())
    }

    /// `clGetImageInfo`.
    pub fn image_info(&self, param: cl_image_info) -> CLResult<InfoValue> {
        let i = self.image().ok_or(CL_INVALID_MEM_OBJECT)?;
        let h = &i.header;
        let t = h.kind;
        Ok(match param {
            CL_IMAGE_FORMAT => {
                let mut b = i.format.order.to_ne_bytes().to_vec();
                b.extend_from_slice(&i.format.dtype.to_ne_bytes());
                InfoValue::Bytes(b)
            }
            CL_IMAGE_ELEMENT_SIZE => InfoValue::size(i.es()),
            CL_IMAGE_ROW_PITCH => InfoValue::size(i.row_pitch()),
            CL_IMAGE_SLICE_PITCH => InfoValue::size(match t {
                CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE2D_ARRAY => i.slice_pitch(),
                CL_MEM_OBJECT_IMAGE1D_ARRAY => i.row_pitch(),
                _ => 0,
            }),
            CL_IMAGE_WIDTH => InfoValue::size(h.width as usize),
            CL_IMAGE_HEIGHT => InfoValue::size(match t {
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => {
                    h.height as usize
                }
                _ => 0,
            }),
            CL_IMAGE_DEPTH => InfoValue::size(if t == CL_MEM_OBJECT_IMAGE3D {
                h.depth as usize
            } else {
                0
            }),
            CL_IMAGE_ARRAY_SIZE => InfoValue::size(i.array_size),
            CL_IMAGE_BUFFER => InfoValue::null_object(),
            CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => InfoValue::uint(0),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

/// A sampler object (`clCreateSampler`).
pub struct Sampler {
    pub context: Arc<Context>,
    pub normalized: bool,
    pub addressing: cl_uint,
    pub filter: cl_uint,
}

impl Sampler {
    /// `clCreateSampler`: the specification's combinations (repeat modes need normalized
    /// coordinates).
    pub fn new(
        context: &Arc<Context>,
        normalized: cl_bool,
        addressing: cl_uint,
        filter: cl_uint,
    ) -> CLResult<Arc<Self>> {
        check(normalized <= 1, CL_INVALID_VALUE)?;
        check(
            (CL_ADDRESS_NONE..=CL_ADDRESS_MIRRORED_REPEAT).contains(&addressing),
            CL_INVALID_VALUE,
        )?;
        check(
            filter == CL_FILTER_NEAREST || filter == CL_FILTER_LINEAR,
            CL_INVALID_VALUE,
        )?;
        check(
            normalized == 1
                || !matches!(addressing, CL_ADDRESS_REPEAT | CL_ADDRESS_MIRRORED_REPEAT),
            CL_INVALID_VALUE,
        )?;
        Ok(Arc::new(Sampler {
            context: context.clone(),
            normalized: normalized == 1,
            addressing,
            filter,
        }))
    }

    /// The kernel-side `sampler_t` bit field (`CLK_*` values).
    pub fn bits(&self) -> u32 {
        use im::sampler_bits as b;
        let a = match self.addressing {
            CL_ADDRESS_CLAMP_TO_EDGE => b::ADDRESS_CLAMP_TO_EDGE,
            CL_ADDRESS_CLAMP => b::ADDRESS_CLAMP,
            CL_ADDRESS_REPEAT => b::ADDRESS_REPEAT,
            CL_ADDRESS_MIRRORED_REPEAT => b::ADDRESS_MIRRORED_REPEAT,
            _ => b::ADDRESS_NONE,
        };
        let f = if self.filter == CL_FILTER_LINEAR {
            b::FILTER_LINEAR
        } else {
            b::FILTER_NEAREST
        };
        (self.normalized as u32) | a | f
    }

    /// `clGetSamplerInfo` (without the reference count).
    pub fn info(&self, param: cl_sampler_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_SAMPLER_CONTEXT => InfoValue::object(ObjRef::Context(self.context.clone())),
            CL_SAMPLER_NORMALIZED_COORDS => InfoValue::bool(self.normalized),
            CL_SAMPLER_ADDRESSING_MODE => InfoValue::uint(self.addressing),
            CL_SAMPLER_FILTER_MODE => InfoValue::uint(self.filter),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

// ---- commands ------------------------------------------------------------------------------

fn image_of(q: &Queue, m: &Mem) -> CLResult<ImageInfo> {
    let i = *m.image().ok_or(CL_INVALID_MEM_OBJECT)?;
    check(Arc::ptr_eq(&q.context, &m.context), CL_INVALID_CONTEXT)?;
    Ok(i)
}

/// The device-side rectangle of an image region given in pixels (origin and region as the
/// host gives them), checked against the image: (byte side, byte region). 1D arrays are seen
/// with their layers as slices of height 1, the layout the host pitches describe.
fn device_rect(
    i: &ImageInfo,
    origin: [usize; 3],
    region: [usize; 3],
) -> CLResult<(RectSide, [usize; 3])> {
    let h = &i.header;
    check(!region.contains(&0), CL_INVALID_VALUE)?;
    let t = h.kind;
    let dims = h.dims();
    let used = match t {
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => 1,
        CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE1D_ARRAY => 2,
        _ => 3,
    };
    for k in 0..3 {
        let end = origin[k].checked_add(region[k]).ok_or(CL_INVALID_VALUE)?;
        if k >= used {
            check(origin[k] == 0 && region[k] == 1, CL_INVALID_VALUE)?;
        } else {
            check(end as u64 <= dims[k], CL_INVALID_VALUE)?;
        }
    }
    let es = i.es();
    let rp = i.row_pitch();
    let (o, r, sp) = if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        (
            [origin[0] * es, 0, origin[1]],
            [region[0] * es, 1, region[1]],
            rp,
        )
    } else {
        (
            [origin[0] * es, origin[1], origin[2]],
            [region[0] * es, region[1], region[2]],
            i.slice_pitch().max(rp),
        )
    };
    Ok((RectSide::new(o, r, rp, sp)?, r))
}

/// The host-side rectangle of a read/write: pitches as given (0 = packed). For 2D and 1D
/// images the slice pitch must be 0; for a 1D array the slice pitch is the step between layers.
fn host_rect(
    i: &ImageInfo,
    region_px: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> CLResult<RectSide> {
    let t = i.header.kind;
    let es = i.es();
    let row = region_px[0] * es;
    if matches!(
        t,
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D
    ) {
        check(slice_pitch == 0, CL_INVALID_VALUE)?;
    }
    if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        // Rows of one pixel row; layers `slice_pitch` apart.
        let rp = if row_pitch == 0 { row } else { row_pitch };
        check(rp >= row, CL_INVALID_VALUE)?;
        let sp = if slice_pitch == 0 { rp } else { slice_pitch };
        check(sp >= rp, CL_INVALID_VALUE)?;
        return Ok(RectSide {
            origin: [0; 3],
            row_pitch: rp,
            slice_pitch: sp,
        });
    }
    let r = [row, region_px[1], region_px[2]];
    RectSide::new([0; 3], r, row_pitch, slice_pitch)
}

/// `clEnqueueReadImage` (`write == false`) and `clEnqueueWriteImage`.
#[allow(clippy::too_many_arguments)]
pub fn rw_image(
    q: &Arc<Queue>,
    m: &Arc<Mem>,
    write: bool,
    blocking: bool,
    origin: [usize; 3],
    region: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
    host: usize,
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    let i = image_of(q, m)?;
    check(host != 0, CL_INVALID_VALUE)?;
    let (dev, r) = device_rect(&i, origin, region)?;
    let hs = host_rect(&i, region, row_pitch, slice_pitch)?;
    if write {
        check(!m.host_cannot_write(), CL_INVALID_OPERATION)?;
    } else {
        check(!m.host_cannot_read(), CL_INVALID_OPERATION)?;
    }
    let mem = m.clone();
    let bytes = r[0] * r[1] * r[2];
    let ns = ops::host_transfer_ns(q, bytes);
    let work = move || -> CLResult<()> {
        report_duration(ns);
        ops::copy_host_rect(&mem, dev, host, hs, r, write)
    };
    let ty = if write {
        CL_COMMAND_WRITE_IMAGE
    } else {
        CL_COMMAND_READ_IMAGE
    };
    let ev = q.enqueue(ty, wait, CommandOrder::Normal, Some(Box::new(work)))?;
    let dir = if write {
        crate::profiling::Direction::Write
    } else {
        crate::profiling::Direction::Read
    };
    crate::profiling::transfer(q, &ev, dir, bytes);
    finish_blocking(ev, blocking)
}

fn enqueue_copy(
    q: &Arc<Queue>,
    ty: cl_uint,
    (src, s): (&Arc<Mem>, RectSide),
    (dst, d): (&Arc<Mem>, RectSide),
    region: [usize; 3],
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    let (sm, dm) = (src.clone(), dst.clone());
    let bytes = region[0] * region[1] * region[2];
    let ns = ops::device_move_ns(q, 2 * bytes);
    let ev = q.enqueue(
        ty,
        wait,
        CommandOrder::Normal,
        Some(Box::new(move || {
            report_duration(ns);
            ops::copy_device_rect(&sm, s, &dm, d, region)
        })),
    )?;
    crate::profiling::transfer(q, &ev, crate::profiling::Direction::Copy, bytes);
    Ok(ev)
}

/// `clEnqueueCopyImage`: formats must be equal (`CL_IMAGE_FORMAT_MISMATCH`), a copy within
/// one image must not overlap (`CL_MEM_COPY_OVERLAP`).
pub fn copy_image(
    q: &Arc<Queue>,
    src: &Arc<Mem>,
    dst: &Arc<Mem>,
    src_origin: [usize; 3],
    dst_origin: [usize; 3],
    region: [usize; 3],
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    let si = image_of(q, src)?;
    let di = image_of(q, dst)?;
    check(si.format == di.format, CL_IMAGE_FORMAT_MISMATCH)?;
    let (s, r) = device_rect(&si, src_origin, region)?;
    let (d, r2) = device_rect(&di, dst_origin, region)?;
    check(r == r2, CL_INVALID_VALUE)?;
    if Arc::ptr_eq(src, dst) {
        check(!rects_overlap(&s, 0, &d, 0, r), CL_MEM_COPY_OVERLAP)?;
    }
    enqueue_copy(q, CL_COMMAND_COPY_IMAGE, (src, s), (dst, d), r, wait)
}

/// The packed buffer side of an image <-> buffer copy at `offset`, checked against the buffer.
fn buffer_side(buf: &Mem, offset: usize, r: [usize; 3]) -> CLResult<RectSide> {
    check(
        buf.image().is_none() && !buf.is_pipe(),
        CL_INVALID_MEM_OBJECT,
    )?;
    let bytes = r[0]
        .checked_mul(r[1])
        .and_then(|x| x.checked_mul(r[2]))
        .ok_or(CL_INVALID_VALUE)?;
    match offset.checked_add(bytes) {
        Some(end) if end <= buf.size => {}
        _ => return Err(CL_INVALID_VALUE),
    }
    // A packed rectangle starting at `offset`: origin (offset, 0, 0) with pitches r[0], r[0]*r[1].
    Ok(RectSide {
        origin: [offset, 0, 0],
        row_pitch: r[0],
        slice_pitch: r[0] * r[1],
    })
}

/// `clEnqueueCopyImageToBuffer`.
pub fn copy_image_to_buffer(
    q: &Arc<Queue>,
    src: &Arc<Mem>,
    dst: &Arc<Mem>,
    src_origin: [usize; 3],
    region: [usize; 3],
    dst_offset: usize,
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    let si = image_of(q, src)?;
    check(Arc::ptr_eq(&q.context, &dst.context), CL_INVALID_CONTEXT)?;
    let (s, r) = device_rect(&si, src_origin, region)?;
    let d = buffer_side(dst, dst_offset, r)?;
    enqueue_copy(
        q,
        CL_COMMAND_COPY_IMAGE_TO_BUFFER,
        (src, s),
        (dst, d),
        r,
        wait,
    )
}

/// `clEnqueueCopyBufferToImage`.
pub fn copy_buffer_to_image(
    q: &Arc<Queue>,
    src: &Arc<Mem>,
    dst: &Arc<Mem>,
    src_offset: usize,
    dst_origin: [usize; 3],
    region: [usize; 3],
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    let di = image_of(q, dst)?;
    check(Arc::ptr_eq(&q.context, &src.context), CL_INVALID_CONTEXT)?;
    let (d, r) = device_rect(&di, dst_origin, region)?;
    let s = buffer_side(src, src_offset, r)?;
    enqueue_copy(
        q,
        CL_COMMAND_COPY_BUFFER_TO_IMAGE,
        (src, s),
        (dst, d),
        r,
        wait,
    )
}

/// `clEnqueueFillImage`: `color` is the 16 bytes of the `float4`, `int4` or `uint4` fill
/// color (by the image's channel data type), converted as `write_image*` converts.
pub fn fill_image(
    q: &Arc<Queue>,
    m: &Arc<Mem>,
    color: [u8; 16],
    origin: [usize; 3],
    region: [usize; 3],
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    let i = image_of(q, m)?;
    let (dev, r) = device_rect(&i, origin, region)?;
    let words: [u32; 4] = [0, 1, 2, 3].map(|k| {
        u32::from_ne_bytes([
            color[4 * k],
            color[4 * k + 1],
            color[4 * k + 2],
            color[4 * k + 3],
        ])
    });
    let texel = match family_of(i.format.dtype) {
        Family::Float => Texel::F(words.map(f32::from_bits)),
        _ => Texel::I(words),
    };
    let pixel = encode_pixel(i.format.order, i.format.dtype, texel);
    let mem = m.clone();
    let ns = ops::device_move_ns(q, r[0] * r[1] * r[2]);
    q.enqueue(
        CL_COMMAND_FILL_IMAGE,
        wait,
        CommandOrder::Normal,
        Some(Box::new(move || {
            report_duration(ns);
            let (s, b) = mem.storage().ok_or(CL_INVALID_MEM_OBJECT)?;
            let mut ok = true;
            dev.for_each_row(r, |o, n| ok &= s.fill(b + o, n, &pixel).is_some());
            check(ok, CL_OUT_OF_RESOURCES)
        })),
    )
}

/// The `read_image*`/`write_image*` family a channel data type is used with.
pub fn family_of(dtype: u32) -> Family {
    match dtype {
        CL_SIGNED_INT8 | CL_SIGNED_INT16 | CL_SIGNED_INT32 => Family::Int,
        CL_UNSIGNED_INT8 | CL_UNSIGNED_INT16 | CL_UNSIGNED_INT32 => Family::UInt,
        _ => Family::Float,
    }
}

/// `clEnqueueMapImage`: the device copy is mapped in place. Returns (pointer, row pitch,
/// slice pitch, event).
#[allow(clippy::too_many_arguments)]
pub fn map_image(
    q: &Arc<Queue>,
    m: &Arc<Mem>,
    blocking: bool,
    map_flags: cl_map_flags,
    origin: [usize; 3],
    region: [usize; 3],
    wait: &[Arc<Event>],
) -> CLResult<(usize, usize, usize, Arc<Event>)> {
    let i = image_of(q, m)?;
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    check(map_flags & !known == 0, CL_INVALID_VALUE)?;
    let invalidate = map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0;
    check(
        !invalidate || map_flags & (CL_MAP_READ | CL_MAP_WRITE) == 0,
        CL_INVALID_VALUE,
    )?;
    let (dev, r) = device_rect(&i, origin, region)?;
    if map_flags & CL_MAP_READ != 0 {
        check(!m.host_cannot_read(), CL_INVALID_OPERATION)?;
    }
    let write = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    if write {
        check(!m.host_cannot_write(), CL_INVALID_OPERATION)?;
    }
    let start = dev.start().ok_or(CL_INVALID_VALUE)?;
    let end = dev.end(r).ok_or(CL_INVALID_VALUE)?;
    // A CL_MEM_USE_HOST_PTR image maps into its host memory (OpenCL 1.2 5.4.2: the pointer is
    // derived from host_ptr, which holds the latest bits once the map completes); any other
    // image maps its device copy in place.
    let host_rows = match i.host {
        Some((base, rp, sp)) => {
            let host = RectSide {
                origin: dev.origin,
                row_pitch: rp,
                slice_pitch: sp,
            };
            Some(HostRows {
                dev,
                host,
                base,
                region: r,
            })
        }
        None => None,
    };
    let (ptr, row_pitch, slice_pitch) = match (&host_rows, i.host) {
        (Some(h), Some((base, rp, sp))) => (base + h.host.start().ok_or(CL_INVALID_VALUE)?, rp, sp),
        _ => (
            m.device_ptr(start).ok_or(CL_INVALID_MEM_OBJECT)?,
            i.row_pitch(),
            i.slice_pitch(),
        ),
    };
    m.add_mapping(Mapping {
        ptr,
        offset: start,
        size: end - start,
        write,
        image_rows: host_rows,
    });
    let mem = m.clone();
    let ev = q.enqueue(
        CL_COMMAND_MAP_IMAGE,
        wait,
        CommandOrder::Normal,
        Some(Box::new(move || match host_rows {
            Some(h) if !invalidate => h.copy(&mem, false),
            _ => Ok(()),
        })),
    );
    let ev = match ev {
        Ok(ev) => ev,
        Err(e) => {
            m.take_mapping(ptr);
            return Err(e);
        }
    };
    let slice = match i.header.kind {
        CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE2D_ARRAY => slice_pitch,
        CL_MEM_OBJECT_IMAGE1D_ARRAY if i.host.is_some() => slice_pitch,
        CL_MEM_OBJECT_IMAGE1D_ARRAY => row_pitch,
        _ => 0,
    };
    Ok((ptr, row_pitch, slice, finish_blocking(ev, blocking)?))
}
