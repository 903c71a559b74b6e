//! Images on the emulated device: the layout of an image's device memory, its formats, and the
//! sampling and conversion rules of OpenCL 1.2 chapter 8 that `read_image*`/`write_image*`
//! follow.
//!
//! # Layout
//! An image is a [`DeviceMemory`](crate::memory::DeviceMemory) that starts with a
//! [`HEADER_BYTES`]-byte [`ImageHeader`] (type, format, sizes) followed by the pixels, tightly
//! packed: row pitch = width x element size, slice pitch = row pitch x height. A 1D array keeps
//! its layers as rows (height = array size), a 2D array as slices (depth = array size). The
//! runtime writes the header when it creates the image; a kernel's image argument is a pointer
//! to the whole allocation, so the executor reads the header from there and bounds-checks every
//! pixel access like any other access to the argument's region.
//!
//! # Constants
//! Channel orders, data types and image types use the OpenCL host API numbers (`CL_RGBA`,
//! `CL_UNORM_INT8`, `CL_MEM_OBJECT_IMAGE2D`), which are also the values of the kernel-side
//! `CLK_*` constants `get_image_channel_order`/`get_image_channel_data_type` return. A sampler
//! on the device is the kernel-side `sampler_t` bit field ([`Sampler`]).

use crate::exec::values::{f32_to_half, half_to_f32};
use fpgacl_kernel_compiler::ir::Rounding;

/// Bytes of the header before the pixels.
pub const HEADER_BYTES: usize = 64;
const MAGIC: u32 = 0x4947_4D46; // "FMGI"

pub mod order {
    pub const R: u32 = 0x10B0;
    pub const A: u32 = 0x10B1;
    pub const RG: u32 = 0x10B2;
    pub const RA: u32 = 0x10B3;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
    pub const BGRA: u32 = 0x10B6;
    pub const ARGB: u32 = 0x10B7;
    pub const INTENSITY: u32 = 0x10B8;
    pub const LUMINANCE: u32 = 0x10B9;
}

pub mod dtype {
    pub const SNORM_INT8: u32 = 0x10D0;
    pub const SNORM_INT16: u32 = 0x10D1;
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const UNORM_INT16: u32 = 0x10D3;
    pub const UNORM_SHORT_565: u32 = 0x10D4;
    pub const UNORM_SHORT_555: u32 = 0x10D5;
    pub const UNORM_INT_101010: u32 = 0x10D6;
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
}

/// `cl_mem_object_type` of images.
pub mod kind {
    pub const IMAGE2D: u32 = 0x10F1;
    pub const IMAGE3D: u32 = 0x10F2;
    pub const IMAGE2D_ARRAY: u32 = 0x10F3;
    pub const IMAGE1D: u32 = 0x10F4;
    pub const IMAGE1D_ARRAY: u32 = 0x10F5;
    pub const IMAGE1D_BUFFER: u32 = 0x10F6;
}

/// The data types of the device's supported formats, in the order
/// `clGetSupportedImageFormats` lists them.
pub const SUPPORTED_TYPES: [u32; 12] = [
    dtype::UNORM_INT8,
    dtype::UNORM_INT16,
    dtype::SNORM_INT8,
    dtype::SNORM_INT16,
    dtype::SIGNED_INT8,
    dtype::SIGNED_INT16,
    dtype::SIGNED_INT32,
    dtype::UNSIGNED_INT8,
    dtype::UNSIGNED_INT16,
    dtype::UNSIGNED_INT32,
    dtype::HALF_FLOAT,
    dtype::FLOAT,
];

fn is_8bit(t: u32) -> bool {
    matches!(
        t,
        dtype::UNORM_INT8 | dtype::SNORM_INT8 | dtype::SIGNED_INT8 | dtype::UNSIGNED_INT8
    )
}

fn is_norm_or_float(t: u32) -> bool {
    matches!(
        t,
        dtype::UNORM_INT8
            | dtype::UNORM_INT16
            | dtype::SNORM_INT8
            | dtype::SNORM_INT16
            | dtype::HALF_FLOAT
            | dtype::FLOAT
    )
}

/// Bytes of one channel of a data type (`None` for packed and unknown types).
pub fn channel_bytes(t: u32) -> Option<u32> {
    Some(match t {
        dtype::SNORM_INT8 | dtype::UNORM_INT8 | dtype::SIGNED_INT8 | dtype::UNSIGNED_INT8 => 1,
        dtype::SNORM_INT16
        | dtype::UNORM_INT16
        | dtype::SIGNED_INT16
        | dtype::UNSIGNED_INT16
        | dtype::HALF_FLOAT => 2,
        dtype::SIGNED_INT32 | dtype::UNSIGNED_INT32 | dtype::FLOAT => 4,
        _ => return None,
    })
}

/// Channels stored per pixel of an order.
pub fn channel_count(o: u32) -> Option<u32> {
    Some(match o {
        order::R | order::A | order::INTENSITY | order::LUMINANCE => 1,
        order::RG | order::RA => 2,
        order::RGB => 3,
        order::RGBA | order::BGRA | order::ARGB => 4,
        _ => return None,
    })
}

/// Whether (order, type) is a valid image format by OpenCL 1.2 table 5.6 (the rules of
/// `CL_INVALID_IMAGE_FORMAT_DESCRIPTOR`): RGB only with the packed types, BGRA/ARGB only with
/// 8-bit types, INTENSITY/LUMINANCE only with normalized or floating types; the packed types
/// only with RGB.
pub fn valid_format(o: u32, t: u32) -> bool {
    let packed = matches!(
        t,
        dtype::UNORM_SHORT_565 | dtype::UNORM_SHORT_555 | dtype::UNORM_INT_101010
    );
    let known_type = packed || channel_bytes(t).is_some();
    if !known_type || channel_count(o).is_none() {
        return false;
    }
    match o {
        order::RGB => packed,
        order::BGRA | order::ARGB => is_8bit(t),
        order::INTENSITY | order::LUMINANCE => is_norm_or_float(t),
        _ => !packed,
    }
}

/// Whether the device supports a format: every valid format except the packed RGB ones.
pub fn supported_format(o: u32, t: u32) -> bool {
    valid_format(o, t) && o != order::RGB
}

/// Every supported format as (order, type), in the order `clGetSupportedImageFormats` lists
/// them.
pub fn supported_formats() -> Vec<(u32, u32)> {
    let orders = [
        order::RGBA,
        order::BGRA,
        order::ARGB,
        order::R,
        order::RG,
        order::A,
        order::RA,
        order::INTENSITY,
        order::LUMINANCE,
    ];
    let mut v = Vec::new();
    for o in orders {
        for t in SUPPORTED_TYPES {
            if supported_format(o, t) {
                v.push((o, t));
            }
        }
    }
    v
}

/// Bytes of one pixel of a supported format.
pub fn element_size(o: u32, t: u32) -> Option<u32> {
    Some(channel_count(o)? * channel_bytes(t)?)
}

/// What the header of an image's memory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageHeader {
    /// `cl_mem_object_type` ([`kind`]).
    pub kind: u32,
    pub order: u32,
    pub dtype: u32,
    pub width: u64,
    /// Height (1 for 1D images; the array size for 1D arrays).
    pub height: u64,
    /// Depth (1 for 1D/2D images; the array size for 2D arrays).
    pub depth: u64,
}

impl ImageHeader {
    pub fn elem_size(&self) -> u64 {
        element_size(self.order, self.dtype).unwrap_or(1) as u64
    }
    pub fn row_pitch(&self) -> u64 {
        self.width * self.elem_size()
    }
    pub fn slice_pitch(&self) -> u64 {
        self.row_pitch() * self.height
    }
    /// Bytes of the pixels.
    pub fn pixel_bytes(&self) -> u64 {
        self.slice_pitch() * self.depth
    }
    /// Bytes of the whole allocation (header + pixels).
    pub fn total_bytes(&self) -> u64 {
        HEADER_BYTES as u64 + self.pixel_bytes()
    }
    /// Offset of pixel (x, y, z) in the allocation (header included).
    pub fn pixel_offset(&self, x: u64, y: u64, z: u64) -> u64 {
        HEADER_BYTES as u64 + z * self.slice_pitch() + y * self.row_pitch() + x * self.elem_size()
    }
    /// Number of coordinates a kernel gives for this image kind (array index included).
    pub fn coord_dims(&self) -> usize {
        match self.kind {
            kind::IMAGE1D | kind::IMAGE1D_BUFFER => 1,
            kind::IMAGE2D | kind::IMAGE1D_ARRAY => 2,
            _ => 3,
        }
    }
    /// Whether the last coordinate is an array index (not addressed nor filtered).
    pub fn is_array(&self) -> bool {
        matches!(self.kind, kind::IMAGE1D_ARRAY | kind::IMAGE2D_ARRAY)
    }
    /// The sizes along the coordinates a kernel gives (array size last for arrays).
    pub fn dims(&self) -> [u64; 3] {
        match self.kind {
            kind::IMAGE1D | kind::IMAGE1D_BUFFER => [self.width, 1, 1],
            kind::IMAGE1D_ARRAY => [self.width, self.height, 1],
            _ => [self.width, self.height, self.depth],
        }
    }

    pub fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[0..4].copy_from_slice(&MAGIC.to_le_bytes());
        b[4..8].copy_from_slice(&self.kind.to_le_bytes());
        b[8..12].copy_from_slice(&self.order.to_le_bytes());
        b[12..16].copy_from_slice(&self.dtype.to_le_bytes());
        b[16..24].copy_from_slice(&self.width.to_le_bytes());
        b[24..32].copy_from_slice(&self.height.to_le_bytes());
        b[32..40].copy_from_slice(&self.depth.to_le_bytes());
        b
    }

    /// The header at the start of `b`, if it is one (a buffer passed where an image is expected
    /// gives `None`).
    pub fn decode(b: &[u8]) -> Option<ImageHeader> {
        let u32_at = |o: usize| Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?));
        let u64_at = |o: usize| Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?));
        if u32_at(0)? != MAGIC {
            return None;
        }
        let h = ImageHeader {
            kind: u32_at(4)?,
            order: u32_at(8)?,
            dtype: u32_at(12)?,
            width: u64_at(16)?,
            height: u64_at(24)?,
            depth: u64_at(32)?,
        };
        (element_size(h.order, h.dtype).is_some() && h.width > 0 && h.height > 0 && h.depth > 0)
            .then_some(h)
    }
}

/// The kernel-side `sampler_t` bit field (the values of Khronos' `CLK_*` sampler constants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler(pub u32);

pub mod sampler_bits {
    pub const NORMALIZED_COORDS_TRUE: u32 = 1;
    pub const ADDRESS_NONE: u32 = 0;
    pub const ADDRESS_CLAMP_TO_EDGE: u32 = 2;
    pub const ADDRESS_CLAMP: u32 = 4;
    pub const ADDRESS_REPEAT: u32 = 6;
    pub const ADDRESS_MIRRORED_REPEAT: u32 = 8;
    pub const ADDRESS_MASK: u32 = 0xE;
    pub const FILTER_NEAREST: u32 = 0x10;
    pub const FILTER_LINEAR: u32 = 0x20;
}

/// Addressing modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addressing {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

impl Sampler {
    /// The sampler `read_image*` without a sampler argument uses (OpenCL 1.2 6.12.14.2):
    /// non-normalized coordinates, no addressing, nearest filtering.
    pub const NO_SAMPLER: Sampler = Sampler(sampler_bits::FILTER_NEAREST);

    pub fn normalized(self) -> bool {
        self.0 & sampler_bits::NORMALIZED_COORDS_TRUE != 0
    }
    pub fn addressing(self) -> Addressing {
        match self.0 & sampler_bits::ADDRESS_MASK {
            sampler_bits::ADDRESS_CLAMP_TO_EDGE => Addressing::ClampToEdge,
            sampler_bits::ADDRESS_CLAMP => Addressing::Clamp,
            sampler_bits::ADDRESS_REPEAT => Addressing::Repeat,
            sampler_bits::ADDRESS_MIRRORED_REPEAT => Addressing::MirroredRepeat,
            _ => Addressing::None,
        }
    }
    pub fn linear(self) -> bool {
        self.0 & sampler_bits::FILTER_LINEAR != 0
    }
}

/// A texel value as read: floats for `read_imagef`, integers for `read_imagei`/`read_imageui`
/// (the raw 32-bit patterns, signed or unsigned by the caller's choice).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Texel {
    F([f32; 4]),
    I([u32; 4]),
}

/// Which `read_image*`/`write_image*` family an access belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Float,
    Int,
    UInt,
}

/// Channel values in storage order -> (r, g, b, a) positions, with the defaults of missing
/// channels (OpenCL 1.2 8.3: 0 for r/g/b, 1 for a).
fn to_rgba<T: Copy>(o: u32, c: &[T], zero: T, one: T) -> [T; 4] {
    let g = |i: usize| c.get(i).copied().unwrap_or(zero);
    match o {
        order::R => [g(0), zero, zero, one],
        order::A => [zero, zero, zero, g(0)],
        order::RG => [g(0), g(1), zero, one],
        order::RA => [g(0), zero, zero, g(1)],
        order::BGRA => [g(2), g(1), g(0), g(3)],
        order::ARGB => [g(1), g(2), g(3), g(0)],
        order::INTENSITY => [g(0), g(0), g(0), g(0)],
        order::LUMINANCE => [g(0), g(0), g(0), one],
        _ => [g(0), g(1), g(2), g(3)],
    }
}

/// (r, g, b, a) -> the channels in storage order.
fn from_rgba<T: Copy>(o: u32, v: [T; 4]) -> Vec<T> {
    match o {
        order::R | order::INTENSITY | order::LUMINANCE => vec![v[0]],
        order::A => vec![v[3]],
        order::RG => vec![v[0], v[1]],
        order::RA => vec![v[0], v[3]],
        order::BGRA => vec![v[2], v[1], v[0], v[3]],
        order::ARGB => vec![v[3], v[0], v[1], v[2]],
        _ => vec![v[0], v[1], v[2], v[3]],
    }
}

fn raw_channel(t: u32, b: &[u8]) -> u32 {
    match channel_bytes(t).unwrap_or(1) {
        1 => b[0] as u32,
        2 => u16::from_le_bytes([b[0], b[1]]) as u32,
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// A channel as a float (OpenCL 1.2 8.3.1.1 conversion rules for normalized types).
fn channel_to_f32(t: u32, raw: u32) -> f32 {
    match t {
        dtype::UNORM_INT8 => raw as f32 / 255.0,
        dtype::UNORM_INT16 => raw as f32 / 65535.0,
        dtype::SNORM_INT8 => (raw as u8 as i8 as f32 / 127.0).max(-1.0),
        dtype::SNORM_INT16 => (raw as u16 as i16 as f32 / 32767.0).max(-1.0),
        dtype::HALF_FLOAT => half_to_f32(raw as u16),
        dtype::FLOAT => f32::from_bits(raw),
        // Integer formats read with read_imagef: undefined by the specification; the value.
        dtype::SIGNED_INT8 => raw as u8 as i8 as f32,
        dtype::SIGNED_INT16 => raw as u16 as i16 as f32,
        dtype::SIGNED_INT32 => raw as i32 as f32,
        _ => raw as f32,
    }
}

/// A channel as a 32-bit integer pattern (sign-extended for signed types).
fn channel_to_int(t: u32, raw: u32) -> u32 {
    match t {
        dtype::SIGNED_INT8 | dtype::SNORM_INT8 => raw as u8 as i8 as i32 as u32,
        dtype::SIGNED_INT16 | dtype::SNORM_INT16 => raw as u16 as i16 as i32 as u32,
        _ => raw,
    }
}

/// Decodes the pixel `b` (at least one element of the format) for a read of `family`.
pub fn decode_pixel(o: u32, t: u32, family: Family, b: &[u8]) -> Texel {
    let cb = channel_bytes(t).unwrap_or(1) as usize;
    let n = channel_count(o).unwrap_or(1) as usize;
    let raws: Vec<u32> = (0..n).map(|i| raw_channel(t, &b[i * cb..])).collect();
    match family {
        Family::Float => {
            let c: Vec<f32> = raws.iter().map(|&r| channel_to_f32(t, r)).collect();
            Texel::F(to_rgba(o, &c, 0.0, 1.0))
        }
        Family::Int | Family::UInt => {
            let c: Vec<u32> = raws.iter().map(|&r| channel_to_int(t, r)).collect();
            Texel::I(to_rgba(o, &c, 0, 1))
        }
    }
}

/// `convert_<T>_sat_rte(x)` into `[lo, hi]` (NaN gives 0).
fn sat_rte(x: f32, lo: f32, hi: f32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    x.clamp(lo, hi).round_ties_even() as i64
}

/// Encodes (r, g, b, a) for a write of `family` into the format's pixel bytes (OpenCL 1.2
/// 8.3.1.1 and 8.3.2-8.3.3: normalized types `convert_<T>_sat_rte(f * max)`, integer types
/// `convert_<T>_sat(i)`, half round to nearest even).
pub fn encode_pixel(o: u32, t: u32, v: Texel) -> Vec<u8> {
    let cb = channel_bytes(t).unwrap_or(1) as usize;
    let chans: Vec<u32> = match v {
        Texel::F(f) => from_rgba(o, f)
            .into_iter()
            .map(|x| match t {
                dtype::UNORM_INT8 => sat_rte(x * 255.0, 0.0, 255.0) as u32,
                dtype::UNORM_INT16 => sat_rte(x * 65535.0, 0.0, 65535.0) as u32,
                dtype::SNORM_INT8 => sat_rte(x * 127.0, -128.0, 127.0) as u32,
                dtype::SNORM_INT16 => sat_rte(x * 32767.0, -32768.0, 32767.0) as u32,
                dtype::HALF_FLOAT => f32_to_half(x, Rounding::Rte) as u32,
                dtype::FLOAT => x.to_bits(),
                // write_imagef to an integer format: undefined; the saturated value.
                _ => sat_int(t, x as i64, true),
            })
            .collect(),
        Texel::I(i) => {
            let signed = matches!(
                t,
                dtype::SIGNED_INT8 | dtype::SIGNED_INT16 | dtype::SIGNED_INT32
            );
            from_rgba(o, i)
                .into_iter()
                .map(|x| {
                    let wide = if signed { x as i32 as i64 } else { x as i64 };
                    sat_int(t, wide, signed)
                })
                .collect()
        }
    };
    let mut out = Vec::with_capacity(chans.len() * cb);
    for c in chans {
        out.extend_from_slice(&c.to_le_bytes()[..cb]);
    }
    out
}

/// `convert_<T>_sat` of an integer into the channel type `t`.
fn sat_int(t: u32, x: i64, _signed: bool) -> u32 {
    match t {
        dtype::SIGNED_INT8 | dtype::SNORM_INT8 => x.clamp(-128, 127) as i32 as u32,
        dtype::SIGNED_INT16 | dtype::SNORM_INT16 => x.clamp(-32768, 32767) as i32 as u32,
        dtype::SIGNED_INT32 => x.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32,
        dtype::UNSIGNED_INT8 | dtype::UNORM_INT8 => x.clamp(0, 255) as u32,
        dtype::UNSIGNED_INT16 | dtype::UNORM_INT16 | dtype::HALF_FLOAT => x.clamp(0, 65535) as u32,
        _ => x.clamp(0, u32::MAX as i64) as u32,
    }
}

/// The border color of `CLK_ADDRESS_CLAMP` (OpenCL 1.2 8.2): all zero for orders with an
/// alpha channel, else alpha 1.
pub fn border(o: u32, family: Family) -> Texel {
    let alpha = matches!(
        o,
        order::A | order::RA | order::RGBA | order::BGRA | order::ARGB | order::INTENSITY
    );
    match family {
        Family::Float => Texel::F([0.0, 0.0, 0.0, if alpha { 0.0 } else { 1.0 }]),
        _ => Texel::I([0, 0, 0, if alpha { 0 } else { 1 }]),
    }
}

/// One coordinate's texel index for nearest filtering (OpenCL 1.2 8.2, tables of
/// `CLK_FILTER_NEAREST`); `None` = outside the image (border color).
pub fn nearest_index(s: f32, size: u64, normalized: bool, mode: Addressing) -> Option<i64> {
    let w = size as f32;
    let n = size as i64;
    match mode {
        Addressing::Repeat if normalized => {
            let u = (s - s.floor()) * w;
            let mut i = u.floor() as i64;
            if i > n - 1 {
                i -= n;
            }
            Some(i)
        }
        Addressing::MirroredRepeat if normalized => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let s2 = (s - s2).abs();
            let u = s2 * w;
            Some((u.floor() as i64).min(n - 1))
        }
        _ => {
            let u = if normalized { s * w } else { s };
            let i = float_to_index(u.floor());
            address(i, n, mode)
        }
    }
}

/// A float that is already integral as an i64 index (saturating, NaN -> out of range).
fn float_to_index(f: f32) -> i64 {
    if f.is_nan() {
        i64::MIN / 2
    } else {
        f.clamp(-1e15, 1e15) as i64
    }
}

/// Addresses an integer index by a non-repeating mode.
fn address(i: i64, n: i64, mode: Addressing) -> Option<i64> {
    match mode {
        Addressing::ClampToEdge | Addressing::Repeat | Addressing::MirroredRepeat => {
            Some(i.clamp(0, n - 1))
        }
        // CLK_ADDRESS_CLAMP gives the border color outside; CLK_ADDRESS_NONE leaves
        // out-of-range coordinates undefined: fpgacl gives the border color too.
        Addressing::Clamp | Addressing::None => (0..n).contains(&i).then_some(i),
    }
}

/// One coordinate's two texel indices and weight for linear filtering (OpenCL 1.2 8.2, tables
/// of `CLK_FILTER_LINEAR`): (i0, i1, a) with `None` for an index outside the image.
pub fn linear_indices(
    s: f32,
    size: u64,
    normalized: bool,
    mode: Addressing,
) -> (Option<i64>, Option<i64>, f32) {
    let w = size as f32;
    let n = size as i64;
    match mode {
        Addressing::Repeat if normalized => {
            let u = (s - s.floor()) * w;
            let f = (u - 0.5).floor();
            let (mut i0, mut i1) = (float_to_index(f), float_to_index(f) + 1);
            if i0 < 0 {
                i0 += n;
            }
            if i1 > n - 1 {
                i1 -= n;
            }
            (Some(i0), Some(i1), (u - 0.5) - f)
        }
        Addressing::MirroredRepeat if normalized => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let s2 = (s - s2).abs();
            let u = s2 * w;
            let f = (u - 0.5).floor();
            let i0 = float_to_index(f).max(0);
            let i1 = (float_to_index(f) + 1).min(n - 1);
            (Some(i0), Some(i1), (u - 0.5) - f)
        }
        _ => {
            let u = if normalized { s * w } else { s };
            let f = (u - 0.5).floor();
            let i0 = float_to_index(f);
            (
                address(i0, n, mode),
                address(i0 + 1, n, mode),
                (u - 0.5) - f,
            )
        }
    }
}

/// The layer of an array image for a coordinate: `clamp(rint(c), 0, size - 1)`.
pub fn array_layer(c: f32, size: u64) -> i64 {
    float_to_index(c.round_ties_even()).clamp(0, size as i64 - 1)
}

/// Reads a texel of `h` with a sampler at float coordinates (integer coordinates are passed as
/// floats and give the same texels with nearest filtering). `fetch(x, y, z)` returns the pixel
/// at valid integer coordinates; it is called once per texel the filter needs. Returns the
/// value and the number of texels fetched.
pub fn sample(
    h: &ImageHeader,
    sampler: Sampler,
    family: Family,
    coord: [f32; 3],
    mut fetch: impl FnMut(u64, u64, u64) -> Texel,
) -> (Texel, u32) {
    let dims = h.dims();
    let nd = h.coord_dims();
    let spatial = if h.is_array() { nd - 1 } else { nd };
    let mode = sampler.addressing();
    let norm = sampler.normalized();
    let mut fixed = [0i64; 3];
    if h.is_array() {
        fixed[nd - 1] = array_layer(coord[nd - 1], dims[nd - 1]);
    }
    // Linear filtering applies to read_imagef only (integer formats with a linear sampler are
    // undefined; fpgacl samples them nearest).
    if !sampler.linear() || family != Family::Float {
        let mut idx = fixed;
        for d in 0..spatial {
            match nearest_index(coord[d], dims[d], norm, mode) {
                Some(i) => idx[d] = i,
                None => return (border(h.order, family), 0),
            }
        }
        return (fetch(idx[0] as u64, idx[1] as u64, idx[2] as u64), 1);
    }
    let mut taps: [(Option<i64>, Option<i64>, f32); 3] = [(Some(0), Some(0), 0.0); 3];
    for d in 0..3 {
        taps[d] = if d < spatial {
            linear_indices(coord[d], dims[d], norm, mode)
        } else {
            (Some(fixed[d]), Some(fixed[d]), 0.0)
        };
    }
    let mut acc = [0f32; 4];
    let mut fetched = 0;
    let corners = 1usize << spatial;
    for c in 0..corners {
        let mut weight = 1f32;
        let mut at = [0i64; 3];
        let mut outside = false;
        for d in 0..3 {
            let (i0, i1, a) = taps[d];
            let hi = d < spatial && c >> d & 1 == 1;
            let i = if hi { i1 } else { i0 };
            if d < spatial {
                weight *= if hi { a } else { 1.0 - a };
            }
            match i {
                Some(i) => at[d] = i,
                None => outside = true,
            }
        }
        let t = if outside {
            border(h.order, family)
        } else {
            fetched += 1;
            fetch(at[0] as u64, at[1] as u64, at[2] as u64)
        };
        if let Texel::F(v) = t {
            for k in 0..4 {
                acc[k] += weight * v[k];
            }
        }
    }
    (Texel::F(acc), fetched)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hdr(kind: u32, o: u32, t: u32, w: u64, h: u64, d: u64) -> ImageHeader {
        ImageHeader {
            kind,
            order: o,
            dtype: t,
            width: w,
            height: h,
            depth: d,
        }
    }

    #[test]
    fn header_round_trip_and_layout() {
        let h = hdr(kind::IMAGE2D, order::RGBA, dtype::UNORM_INT8, 5, 3, 1);
        assert_eq!(ImageHeader::decode(&h.encode()), Some(h));
        assert_eq!(h.elem_size(), 4);
        assert_eq!(h.row_pitch(), 20);
        assert_eq!(h.total_bytes(), 64 + 60);
        assert_eq!(h.pixel_offset(2, 1, 0), 64 + 20 + 8);
        assert_eq!(ImageHeader::decode(&[0u8; 64]), None);
    }

    #[test]
    fn format_validity_follows_table_5_6() {
        assert!(valid_format(order::BGRA, dtype::UNORM_INT8));
        assert!(!valid_format(order::BGRA, dtype::FLOAT));
        assert!(valid_format(order::RGB, dtype::UNORM_SHORT_565));
        assert!(!supported_format(order::RGB, dtype::UNORM_SHORT_565));
        assert!(!valid_format(order::RGB, dtype::FLOAT));
        assert!(!valid_format(order::RGBA, dtype::UNORM_SHORT_565));
        assert!(!valid_format(order::INTENSITY, dtype::SIGNED_INT8));
        assert!(!valid_format(0x1234, dtype::FLOAT));
        let all = supported_formats();
        // RGBA x 12 types + BGRA/ARGB x 4 + R/RG/A/RA x 12 + INTENSITY/LUMINANCE x 6.
        assert_eq!(all.len(), 12 + 4 + 4 + 4 * 12 + 2 * 6);
        assert!(all.contains(&(order::RGBA, dtype::FLOAT)));
        assert!(all.contains(&(order::R, dtype::UNSIGNED_INT16)));
    }

    #[test]
    fn conversions_by_hand() {
        // UNORM_INT8 128 -> 128/255; write 0.5 -> rte(127.5) = 128; 1.7 saturates to 255; NaN -> 0.
        let t = decode_pixel(
            order::RGBA,
            dtype::UNORM_INT8,
            Family::Float,
            &[128, 0, 255, 51],
        );
        assert_eq!(t, Texel::F([128.0 / 255.0, 0.0, 1.0, 0.2]));
        assert_eq!(
            encode_pixel(
                order::RGBA,
                dtype::UNORM_INT8,
                Texel::F([0.5, 1.7, -3.0, f32::NAN])
            ),
            vec![128, 255, 0, 0]
        );
        // 0.25 * 255 = 63.75 -> 64; 2.5/255 rounds to even: 1.5 -> 2, 2.5 -> 2
        assert_eq!(
            encode_pixel(order::R, dtype::UNORM_INT8, Texel::F([0.25, 0.0, 0.0, 0.0])),
            vec![64]
        );
        assert_eq!(
            encode_pixel(
                order::R,
                dtype::UNORM_INT8,
                Texel::F([2.5 / 255.0, 0., 0., 0.])
            ),
            vec![2]
        );
        // SNORM_INT8: -128 -> max(-1, -128/127) = -1.
        let t = decode_pixel(order::R, dtype::SNORM_INT8, Family::Float, &[0x80]);
        assert_eq!(t, Texel::F([-1.0, 0.0, 0.0, 1.0]));
        // BGRA storage order.
        let t = decode_pixel(
            order::BGRA,
            dtype::UNSIGNED_INT8,
            Family::UInt,
            &[1, 2, 3, 4],
        );
        assert_eq!(t, Texel::I([3, 2, 1, 4]));
        assert_eq!(
            encode_pixel(order::BGRA, dtype::UNSIGNED_INT8, Texel::I([3, 2, 1, 4])),
            vec![1, 2, 3, 4]
        );
        // Integer saturation: write_imagei(-300) into SIGNED_INT8 -> -128; write_imageui
        // 70000 into UNSIGNED_INT16 -> 65535.
        assert_eq!(
            encode_pixel(
                order::R,
                dtype::SIGNED_INT8,
                Texel::I([-300i32 as u32, 0, 0, 0])
            ),
            vec![0x80]
        );
        assert_eq!(
            encode_pixel(order::R, dtype::UNSIGNED_INT16, Texel::I([70000, 0, 0, 0])),
            vec![0xff, 0xff]
        );
        // Sign extension on read_imagei.
        let t = decode_pixel(
            order::RG,
            dtype::SIGNED_INT16,
            Family::Int,
            &[0xfe, 0xff, 5, 0],
        );
        assert_eq!(t, Texel::I([-2i32 as u32, 5, 0, 1]));
        // HALF_FLOAT: 1.0 = 0x3c00.
        assert_eq!(
            encode_pixel(order::R, dtype::HALF_FLOAT, Texel::F([1.0, 0., 0., 0.])),
            vec![0x00, 0x3c]
        );
        assert_eq!(border(order::R, Family::Float), Texel::F([0., 0., 0., 1.]));
        assert_eq!(border(order::RGBA, Family::Float), Texel::F([0.; 4]));
    }

    #[test]
    fn nearest_addressing_by_hand() {
        use Addressing::{Clamp, ClampToEdge, MirroredRepeat, Repeat};
        // Width 4, unnormalized.
        assert_eq!(nearest_index(2.7, 4, false, ClampToEdge), Some(2));
        assert_eq!(nearest_index(-0.5, 4, false, ClampToEdge), Some(0));
        assert_eq!(nearest_index(9.0, 4, false, ClampToEdge), Some(3));
        assert_eq!(nearest_index(-0.5, 4, false, Clamp), None);
        assert_eq!(nearest_index(4.0, 4, false, Clamp), None);
        assert_eq!(nearest_index(3.99, 4, false, Clamp), Some(3));
        // Normalized: s = 0.6 -> u = 2.4 -> 2.
        assert_eq!(nearest_index(0.6, 4, true, ClampToEdge), Some(2));
        // Repeat: s = 1.3 -> frac 0.3 (f32: 0.29999995) * 4 = 1.1999998 -> 1; s = -0.1 -> 0.9 * 4 = 3.6 -> 3.
        assert_eq!(nearest_index(1.3, 4, true, Repeat), Some(1));
        assert_eq!(nearest_index(-0.1, 4, true, Repeat), Some(3));
        // Mirrored repeat: s = 1.25 -> s' = |1.25 - 2*rint(0.625)| = |1.25 - 2| = 0.75 -> 3;
        // s = -0.3 -> |-0.3 - 0| = 0.3 -> 1.2 -> 1; s = 1.0 -> |1 - 2*rint(0.5)=0| = 1 -> 4 -> min 3.
        assert_eq!(nearest_index(1.25, 4, true, MirroredRepeat), Some(3));
        assert_eq!(nearest_index(-0.3, 4, true, MirroredRepeat), Some(1));
        assert_eq!(nearest_index(1.0, 4, true, MirroredRepeat), Some(3));
        assert_eq!(nearest_index(f32::NAN, 4, false, Clamp), None);
    }

    #[test]
    fn linear_filtering_by_hand() {
        use Addressing::{Clamp, ClampToEdge, Repeat};
        // u = 1.75 -> i0 = floor(1.25) = 1, i1 = 2, a = 0.25.
        assert_eq!(
            linear_indices(1.75, 4, false, ClampToEdge),
            (Some(1), Some(2), 0.25)
        );
        // u = 0.25 -> i0 = -1 -> clamp to edge 0 / clamp: border.
        assert_eq!(
            linear_indices(0.25, 4, false, ClampToEdge),
            (Some(0), Some(0), 0.75)
        );
        assert_eq!(linear_indices(0.25, 4, false, Clamp), (None, Some(0), 0.75));
        // Repeat, s = 0.0 -> u = 0 -> i0 = -1 + 4 = 3, i1 = 0, a = 0.5.
        assert_eq!(
            linear_indices(0.0, 4, true, Repeat),
            (Some(3), Some(0), 0.5)
        );
        // A 2x2 FLOAT R image [[0, 1], [2, 3]] sampled at the centre (1.0, 1.0) unnormalized:
        // i0 = 0, i1 = 1, a = b = 0.5 -> (0 + 1 + 2 + 3) / 4 = 1.5.
        let h = hdr(kind::IMAGE2D, order::R, dtype::FLOAT, 2, 2, 1);
        let px = [0.0f32, 1.0, 2.0, 3.0];
        let s = Sampler(sampler_bits::ADDRESS_CLAMP_TO_EDGE | sampler_bits::FILTER_LINEAR);
        let (t, n) = sample(&h, s, Family::Float, [1.0, 1.0, 0.0], |x, y, _| {
            Texel::F([px[(y * 2 + x) as usize], 0.0, 0.0, 1.0])
        });
        assert_eq!((t, n), (Texel::F([1.5, 0.0, 0.0, 1.0]), 4));
        // At (0.75, 0.5): u - 0.5 = 0.25 -> i0 = 0, a = 0.25; v - 0.5 = 0 -> b = 0:
        // 0.75 * 0 + 0.25 * 1 = 0.25.
        let (t, _) = sample(&h, s, Family::Float, [0.75, 0.5, 0.0], |x, y, _| {
            Texel::F([px[(y * 2 + x) as usize], 0.0, 0.0, 1.0])
        });
        assert_eq!(t, Texel::F([0.25, 0.0, 0.0, 1.0]));
        // Nearest with clamp outside: border, no fetch.
        let s = Sampler(sampler_bits::ADDRESS_CLAMP | sampler_bits::FILTER_NEAREST);
        let (t, n) = sample(&h, s, Family::Float, [-1.0, 0.0, 0.0], |_, _, _| {
            panic!("no fetch outside")
        });
        assert_eq!((t, n), (Texel::F([0., 0., 0., 1.]), 0));
        // A 2D array: the layer is rint(c) clamped.
        let h = hdr(kind::IMAGE2D_ARRAY, order::R, dtype::FLOAT, 2, 2, 3);
        let (t, _) = sample(
            &h,
            Sampler::NO_SAMPLER,
            Family::Float,
            [1.0, 0.0, 7.6],
            |x, y, z| Texel::F([(z * 100 + y * 10 + x) as f32, 0., 0., 1.]),
        );
        assert_eq!(t, Texel::F([201.0, 0., 0., 1.]));
    }
}
