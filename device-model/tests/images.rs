//! Image kernels compiled from OpenCL C and executed on images laid out as the runtime makes
//! them (`fpgacl_device_model::image`): sampler reads with hand-computed values, format
//! conversion on write, queries, and the per-site counting of image accesses.

mod timing_util;

use fpgacl_device_model::image::{dtype, kind, order, ImageHeader, HEADER_BYTES};
use fpgacl_device_model::*;
use std::sync::Arc;
use timing_util::compile;

fn image(h: ImageHeader, pixels: &[u8]) -> Arc<DeviceMemory> {
    let m = DeviceMemory::new(h.total_bytes() as usize).unwrap();
    m.write(0, &h.encode()).unwrap();
    m.write(HEADER_BYTES, pixels).unwrap();
    Arc::new(m)
}

fn hdr(o: u32, t: u32, w: u64, h: u64) -> ImageHeader {
    ImageHeader {
        kind: kind::IMAGE2D,
        order: o,
        dtype: t,
        width: w,
        height: h,
        depth: 1,
    }
}

fn floats(m: &DeviceMemory, n: usize) -> Vec<f32> {
    let mut b = vec![0u8; n * 4];
    m.read(0, &mut b).unwrap();
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn run(src: &str, global: [u64; 2], args: Vec<ArgBinding>) -> RunReport {
    let inst = ProgramInstance::new(compile(src), &Board::default_board(), ExecConfig::default())
        .expect("decodes");
    inst.run(&LaunchSpec {
        kernel: 0,
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [global[0], global[1], 1],
        local_size: None,
        args,
    })
    .expect("runs")
}

const SAMPLE: &str = "
__kernel void sample(read_only image2d_t img, sampler_t s, __global const float2 *at,
                     __global float4 *out) {
  int i = get_global_id(0);
  out[i] = read_imagef(img, s, at[i]);
}";

/// A 2x2 CL_R/CL_UNORM_INT8 image [[0, 51], [102, 255]] (0, 0.2, 0.4, 1.0) sampled with each
/// addressing and filter mode; expected values computed by hand from OpenCL 1.2 8.2.
#[test]
fn sampler_modes_by_hand() {
    let img = image(hdr(order::R, dtype::UNORM_INT8, 2, 2), &[0, 51, 102, 255]);
    let cases: &[(u32, [f32; 2], f32)] = &[
        // nearest, unnormalized, clamp to edge: (1.5, 0.2) -> texel (1, 0) = 0.2
        (0x10 | 2, [1.5, 0.2], 0.2),
        // clamp to edge outside: (-3, 7) -> (0, 1) = 0.4
        (0x10 | 2, [-3.0, 7.0], 0.4),
        // clamp outside: border (0, 0, 0, 1) -> r = 0
        (0x10 | 4, [2.5, 0.5], 0.0),
        // normalized repeat: (1.75, 0.75) -> u = 0.75 * 2 = 1.5 -> (1, 1) = 1.0
        (0x10 | 6 | 1, [1.75, 0.75], 1.0),
        // normalized mirrored repeat: s = 1.25 -> |1.25 - 2| = 0.75 -> 1; t = 0.25 -> 0: 0.2
        (0x10 | 8 | 1, [1.25, 0.25], 0.2),
        // linear, clamp to edge, centre (1, 1): (0 + 0.2 + 0.4 + 1) / 4 = 0.4
        (0x20 | 2, [1.0, 1.0], 0.4),
        // linear at (0.75, 0.5): a = 0.25, b = 0 -> 0.75 * 0 + 0.25 * 0.2 = 0.05
        (0x20 | 2, [0.75, 0.5], 0.05),
    ];
    for (s, at, want) in cases {
        let pos: Vec<u8> = at.iter().flat_map(|f| f.to_le_bytes()).collect();
        let out = Arc::new(DeviceMemory::new(16).unwrap());
        let at_m = Arc::new(DeviceMemory::new(8).unwrap());
        at_m.write(0, &pos).unwrap();
        let rep = run(
            SAMPLE,
            [1, 1],
            vec![
                ArgBinding::buffer(&img),
                ArgBinding::Value(s.to_le_bytes().to_vec()),
                ArgBinding::buffer(&at_m),
                ArgBinding::buffer(&out),
            ],
        );
        let v = floats(&out, 4);
        assert!(
            (v[0] - want).abs() < 1e-6 && v[3] == 1.0,
            "sampler {s:#x} at {at:?}: {v:?}, want r = {want}"
        );
        // The read counts at its site as one access of the texels it read (1 byte each):
        // 1 for nearest (0 outside with CLAMP), up to 4 for linear.
        let m = compile(SAMPLE);
        let read_site = m
            .sites
            .iter()
            .position(|x| x.target == "img")
            .expect("image site");
        let c = &rep.counters.sites[read_site];
        let texels = if s & 0x20 != 0 { 4 } else { 1 };
        assert!(c.fires == 1 && c.bytes == texels, "sampler {s:#x}: {c:?}");
    }
}

/// write_imagef into CL_RGBA/CL_UNORM_INT8 rounds to nearest even and saturates; the queries
/// give the image's size and format; an integer-coordinate read without a sampler gives back
/// what was written.
#[test]
fn write_convert_query_and_copy() {
    let src = "
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__kernel void fill(write_only image2d_t dst, __global int *info) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(dst, (int2)(x, y), (float4)(x * 0.25f, 1.7f, -0.2f, 2.5f / 255.0f));
  if (x == 0 && y == 0) {
    info[0] = get_image_width(dst); info[1] = get_image_height(dst);
    info[2] = get_image_channel_order(dst) == CLK_RGBA;
    info[3] = get_image_channel_data_type(dst) == CLK_UNORM_INT8;
    int2 d = get_image_dim(dst); info[4] = d.x * 100 + d.y;
  }
}";
    let img = image(hdr(order::RGBA, dtype::UNORM_INT8, 3, 2), &[0; 24]);
    let info = Arc::new(DeviceMemory::new(20).unwrap());
    let rep = run(
        src,
        [3, 2],
        vec![ArgBinding::buffer(&img), ArgBinding::buffer(&info)],
    );
    let mut px = vec![0u8; 24];
    img.read(HEADER_BYTES, &mut px).unwrap();
    // x * 0.25 * 255 = 0, 63.75 -> 64, 127.5 -> 128 (even); 1.7 -> 255; -0.2 -> 0; 2.5 -> 2.
    for y in 0..2 {
        for x in 0..3 {
            let p = &px[(y * 3 + x) * 4..][..4];
            assert_eq!(p, [[0, 64, 128][x], 255, 0, 2], "pixel ({x}, {y})");
        }
    }
    let mut b = vec![0u8; 20];
    info.read(0, &mut b).unwrap();
    let iv: Vec<i32> = b
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(iv, vec![3, 2, 1, 1, 302]);
    // 6 writes of 4 bytes at the write's site.
    let w = rep
        .counters
        .sites
        .iter()
        .find(|c| c.fires == 6)
        .expect("write site");
    assert_eq!(w.bytes, 24);
}

/// read_imageui with integer coordinates and no sampler on CL_RGBA/CL_UNSIGNED_INT16.
#[test]
fn integer_read_without_sampler() {
    let src = "
__kernel void k(read_only image2d_t img, __global uint4 *out) {
  int x = get_global_id(0);
  out[x] = read_imageui(img, (int2)(x, 1));
}";
    let mut px = Vec::new();
    for i in 0..8u16 {
        for c in 0..4u16 {
            px.extend_from_slice(&(i * 1000 + c).to_le_bytes());
        }
    }
    let img = image(hdr(order::RGBA, dtype::UNSIGNED_INT16, 4, 2), &px);
    let out = Arc::new(DeviceMemory::new(64).unwrap());
    run(
        src,
        [4, 1],
        vec![ArgBinding::buffer(&img), ArgBinding::buffer(&out)],
    );
    let mut b = vec![0u8; 64];
    out.read(0, &mut b).unwrap();
    let v: Vec<u32> = b
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for x in 0..4u32 {
        for c in 0..4u32 {
            assert_eq!(v[(x * 4 + c) as usize], (4 + x) * 1000 + c);
        }
    }
}

/// A buffer bound where an image is expected is refused at launch.
#[test]
fn buffer_as_image_is_refused() {
    let inst = ProgramInstance::new(
        compile(SAMPLE),
        &Board::default_board(),
        ExecConfig::default(),
    )
    .unwrap();
    let b = Arc::new(DeviceMemory::new(256).unwrap());
    let e = inst
        .run(&LaunchSpec::ndrange_1d(
            0,
            1,
            None,
            vec![
                ArgBinding::buffer(&b),
                ArgBinding::Value(vec![0x10, 0, 0, 0]),
                ArgBinding::buffer(&b),
                ArgBinding::buffer(&b),
            ],
        ))
        .unwrap_err();
    assert!(format!("{e}").contains("not an image"), "{e}");
}
