//! The compiling backend (`exec::jit`) against the interpreter: the workload kernels
//! (vector add, matmul, mandelbrot, n-body, a single work-item loop), kernels that exercise the
//! out-of-line paths (division, switch, vectors, atomics, printf, out-of-bounds accesses) and
//! the differential corpus (`diff/corpus.cl`) run on both backends, untimed and timed; outputs,
//! per-site and per-loop counters, emulated end times and out-of-bounds reports must be equal
//! bit for bit. Kernels with barriers, local memory and async copies compile (work-items leave
//! the compiled code at a barrier and resume after it); kernels with channels compile (their
//! channel operations call the interpreter's).

use fpgacl_device_model::timing::ComputeModel;
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::analysis::{self, Report};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::SourceFile;
use std::sync::Arc;

const KERNELS: &str = r#"
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
    int i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
    int row = get_global_id(1);
    int col = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

__kernel void mandelbrot(__global int *out, int w, int h, int maxit) {
    int x = get_global_id(0);
    int y = get_global_id(1);
    float cr = -2.0f + 3.0f * (float)x / (float)w;
    float ci = -1.5f + 3.0f * (float)y / (float)h;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}

__kernel void nbody(__global const float4 *pos, __global float4 *acc, int n) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
        float inv = rsqrt(r2);
        float s = q.w * inv * inv * inv;
        ax += s * dx; ay += s * dy; az += s * dz;
    }
    acc[i] = (float4)(ax, ay, az, sqrt(ax * ax + ay * ay));
}

__kernel void swi_loop(__global const int *in, __global int *out, int n) {
    int acc = 0;
    uint h = 7u;
    long wide = 1;
    for (int i = 0; i < n; i++) {
        int v = in[i];
        acc += v * 3 - (v >> 2);
        h = (h * 31u) ^ (uint)v;
        if (v % 7 == 0)
            acc ^= i;
        switch (v & 3) {
        case 0: acc += 1; break;
        case 1: acc -= 2; break;
        default: acc += v / 5;
        }
        for (int j = 0; j < (v & 7); j++)
            wide = wide * 3 + j;
    }
    out[0] = acc;
    out[1] = (int)h;
    out[2] = (int)(wide >> 7);
    out[3] = (int)wide;
}

__kernel void mixed(__global const uint *in, __global uint *out, __global int *count) {
    int i = get_global_id(0);
    uint v = in[i];
    uint4 q = (uint4)(v, v >> 3, v * 7u, ~v);
    uint4 r = q / (uint4)(3u, 0u, 5u, 11u);
    int s = (int)v;
    float f = (float)s * 0.25f;
    double d = (double)v / 3.0;
    char c = (char)v;
    short sh = (short)(v * 13u);
    out[i * 8 + 0] = r.x + r.y + r.z + r.w;
    out[i * 8 + 1] = (uint)(s / -3) ^ (uint)(s % 5);
    out[i * 8 + 2] = as_uint(f * f - 1.0f);
    out[i * 8 + 3] = (uint)(ulong)(d * 1000.0);
    out[i * 8 + 4] = (uint)(int)c + (uint)(int)sh;
    out[i * 8 + 5] = select(1u, 2u, v > 100u) + min(v, 77u) + max(v & 15u, 3u);
    out[i * 8 + 6] = rotate(v, 5u) + clz(v) + popcount(v);
    out[i * 8 + 7] = convert_uint_sat((float)s * 3.5f);
    atomic_add(count, (int)(v & 7u));
}

// Indices whose byte offset leaves the offset field (the wide path keeps the pointer's
// region and poisons its offset): reported out of bounds against the right region.
__kernel void wide_index(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    long k = ((long)(i & 3) << 45) - (1L << 46);
    out[i] = in[k + i] + in[i];
    out[(long)i * 0x1000000000L + i] = i;
}

// Conversions the JIT does inline (integer <-> float, float <-> double) on edge values:
// NaN, infinities, out-of-range, negative to unsigned, halves, and the helper's cases
// (directed rounding, half, saturating integer narrowing) beside them.
__kernel void conversions(__global const uint *in, __global uint *out) {
    int i = get_global_id(0);
    uint u = in[i];
    float f = as_float(u);
    double d = (double)f * 3.0;
    int s = (int)u;
    ulong ul = ((ulong)u << 33) | u;
    __global uint *o = out + i * 24;
    o[0] = (uint)(int)f;
    o[1] = (uint)f;
    o[2] = (uint)(char)f + ((uint)(uchar)f << 8) + ((uint)(ushort)f << 16);
    o[3] = (uint)(short)f;
    o[4] = (uint)(long)f;
    o[5] = (uint)((ulong)f >> 20);
    o[6] = as_uint((float)s);
    o[7] = as_uint((float)u);
    o[8] = as_uint((float)ul);
    o[9] = as_uint((float)(long)ul);
    o[10] = (uint)(as_ulong((double)ul) >> 17);
    o[11] = (uint)as_ulong((double)s);
    o[12] = as_uint((float)d);
    o[13] = (uint)(as_ulong(d) >> 29);
    o[14] = (uint)(int)d + (uint)(uchar)d;
    o[15] = (uint)((long)d >> 3);
    o[16] = (uint)((ulong)d >> 7);
    o[17] = as_uint(convert_float_rtz(s)) ^ as_uint(convert_float_rtp(ul));
    o[18] = (uint)convert_int_rte(f) + (uint)convert_int_sat_rtn(d);
    o[19] = (uint)convert_uchar_sat(f) + ((uint)convert_short_sat(d) << 8);
    o[20] = as_uint(convert_float_rtn(d));
    o[21] = (uint)as_ushort(convert_half(f));
    o[22] = (uint)convert_uint_sat(f);
    o[23] = as_uint((float)(short)s);
}

__kernel void stencil(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    out[i] = in[i - 1] + in[i + 1];
}

__kernel void talk(__global const int *in) {
    int i = get_global_id(0);
    if (i < 3)
        printf("item %d sees %d\n", i, in[i]);
}

__kernel void with_barrier(__global int *x, __local int *tmp) {
    int l = get_local_id(0);
    tmp[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    x[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
}
"#;

fn compile(name: &str, src: &str) -> Arc<Module> {
    let out = fpgacl_kernel_compiler::build(
        &[SourceFile {
            name: name.into(),
            text: src.into(),
        }],
        "",
    )
    .expect("options");
    out.module
        .unwrap_or_else(|| panic!("build failed:\n{}", out.log))
}

fn instance(m: &Arc<Module>, backend: Backend, oob: OobMode) -> ProgramInstance {
    ProgramInstance::new(
        m.clone(),
        &Board::default_board(),
        ExecConfig {
            threads: 1,
            backend: Some(backend),
            oob: Some(oob),
            printf: PrintfSink::Capture(Default::default()),
            ..Default::default()
        },
    )
    .expect("decodes")
}

fn words(v: &[u32]) -> Arc<DeviceMemory> {
    let m = DeviceMemory::new(v.len() * 4).unwrap();
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    m.write(0, &b).unwrap();
    Arc::new(m)
}

fn read(m: &DeviceMemory) -> Vec<u8> {
    let mut b = vec![0u8; m.len()];
    m.read(0, &mut b).unwrap();
    b
}

fn pseudo(n: usize, seed: u32) -> Vec<u32> {
    (0..n as u32)
        .map(|i| {
            let mut x = (i ^ seed).wrapping_mul(2654435761) ^ 0x9e37_79b9;
            x ^= x >> 15;
            x = x.wrapping_mul(0x85eb_ca6b);
            x ^ (x >> 13)
        })
        .collect()
}

fn floats(n: usize, seed: u32) -> Vec<u32> {
    pseudo(n, seed)
        .into_iter()
        .map(|x| ((x % 2000) as f32 / 100.0 - 10.0).to_bits())
        .collect()
}

fn int_arg(v: i32) -> ArgBinding {
    ArgBinding::Value(v.to_le_bytes().to_vec())
}

/// One launch with fresh buffers: (buffer bytes after the run, the run's report).
type Outcome = (Vec<Vec<u8>>, Result<RunReport, String>);

struct Case {
    kernel: &'static str,
    dims: u32,
    global: [u64; 3],
    local: Option<[u64; 3]>,
    bufs: Vec<Vec<u32>>,
    /// Arguments: `Ok(i)` = buffer i, `Err(v)` = an int value.
    args: Vec<Result<usize, i32>>,
}

fn run_case(inst: &ProgramInstance, m: &Module, report: &Report, c: &Case, timed: bool) -> Outcome {
    let k = m
        .kernels
        .iter()
        .position(|f| f.name == c.kernel)
        .expect("kernel") as u32;
    let bufs: Vec<Arc<DeviceMemory>> = c.bufs.iter().map(|b| words(b)).collect();
    let args = c
        .args
        .iter()
        .map(|a| match a {
            Ok(i) => ArgBinding::buffer(&bufs[*i]),
            Err(v) => int_arg(*v),
        })
        .collect();
    let spec = LaunchSpec {
        kernel: k,
        work_dim: c.dims,
        global_offset: [0; 3],
        global_size: c.global,
        local_size: c.local,
        args,
    };
    let r = if timed {
        let f = &m.kernels[k as usize];
        let plan = ComputeModel::new(f, report.kernel(&f.name).expect("report")).clock_plan(5);
        inst.run_timed(&spec, &plan)
    } else {
        inst.run(&spec)
    };
    let r = r
        .map(|mut r| {
            r.host_time = Default::default();
            // Host-side scheduling figures (when each worker finished) vary from run to run.
            r.workers.clear();
            r
        })
        .map_err(|e| e.to_string());
    (bufs.iter().map(|b| read(b)).collect(), r)
}

fn cases() -> Vec<Case> {
    let n = 24usize;
    vec![
        Case {
            kernel: "vadd",
            dims: 1,
            global: [1000, 1, 1],
            local: Some([8, 1, 1]),
            bufs: vec![floats(1000, 1), floats(1000, 2), vec![0; 1000]],
            args: vec![Ok(0), Ok(1), Ok(2)],
        },
        Case {
            kernel: "wide_index",
            dims: 1,
            global: [16, 1, 1],
            local: Some([4, 1, 1]),
            bufs: vec![pseudo(16, 5), vec![0; 16]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "matmul",
            dims: 2,
            global: [n as u64, n as u64, 1],
            local: Some([4, 4, 1]),
            bufs: vec![floats(n * n, 3), floats(n * n, 4), vec![0; n * n]],
            args: vec![Ok(0), Ok(1), Ok(2), Err(n as i32)],
        },
        Case {
            kernel: "mandelbrot",
            dims: 2,
            global: [32, 24, 1],
            local: None,
            bufs: vec![vec![0; 32 * 24]],
            args: vec![Ok(0), Err(32), Err(24), Err(200)],
        },
        Case {
            kernel: "nbody",
            dims: 1,
            global: [64, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![floats(256, 5), vec![0; 256]],
            args: vec![Ok(0), Ok(1), Err(64)],
        },
        Case {
            kernel: "swi_loop",
            dims: 1,
            global: [1, 1, 1],
            local: Some([1, 1, 1]),
            bufs: vec![pseudo(500, 6), vec![0; 4]],
            args: vec![Ok(0), Ok(1), Err(500)],
        },
        Case {
            kernel: "mixed",
            dims: 1,
            global: [64, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![
                {
                    let mut v = pseudo(64, 7);
                    v[..5].copy_from_slice(&[0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff]);
                    v
                },
                vec![0; 64 * 8],
                vec![0; 1],
            ],
            args: vec![Ok(0), Ok(1), Ok(2)],
        },
        Case {
            kernel: "conversions",
            dims: 1,
            global: [48, 1, 1],
            local: Some([8, 1, 1]),
            bufs: vec![
                {
                    let mut v = floats(48, 12);
                    let edge = [
                        f32::NAN.to_bits(),
                        f32::INFINITY.to_bits(),
                        f32::NEG_INFINITY.to_bits(),
                        (-0.5f32).to_bits(),
                        (-1.5f32).to_bits(),
                        2147483648.0f32.to_bits(),
                        (-2147483904.0f32).to_bits(),
                        4294967296.0f32.to_bits(),
                        1e20f32.to_bits(),
                        (-1e20f32).to_bits(),
                        200.7f32.to_bits(),
                        (-200.7f32).to_bits(),
                        70000.5f32.to_bits(),
                        16777217.0f32.to_bits(),
                        0x8000_0000,
                        0xffff_ffff,
                        0x7fff_ffff,
                        1,
                        0x0100_0001,
                        0x7f7f_ffff,
                    ];
                    v[..edge.len()].copy_from_slice(&edge);
                    v
                },
                vec![0; 48 * 24],
            ],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "stencil",
            dims: 1,
            global: [40, 1, 1],
            local: Some([8, 1, 1]),
            bufs: vec![pseudo(40, 8), vec![0; 40]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "talk",
            dims: 1,
            global: [8, 1, 1],
            local: None,
            bufs: vec![pseudo(8, 9)],
            args: vec![Ok(0)],
        },
    ]
}

#[test]
fn workload_kernels_compile_and_agree_with_the_interpreter_bit_for_bit() {
    let m = compile("kernels.cl", KERNELS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let interp = instance(&m, Backend::Interp, OobMode::Report);
    let jit = instance(&m, Backend::Jit, OobMode::Report);
    for c in cases() {
        let k = m.kernels.iter().position(|f| f.name == c.kernel).unwrap() as u32;
        assert!(!interp.compiled(k));
        assert!(jit.compiled(k), "{} was not compiled", c.kernel);
        for timed in [false, true] {
            let a = run_case(&interp, &m, &report, &c, timed);
            let b = run_case(&jit, &m, &report, &c, timed);
            let (ra, rb) = (a.1.as_ref().unwrap(), b.1.as_ref().unwrap());
            assert_eq!(a.0, b.0, "{} (timed {timed}): outputs differ", c.kernel);
            assert_eq!(
                ra.counters, rb.counters,
                "{} (timed {timed}): counters differ",
                c.kernel
            );
            assert_eq!(
                ra.end_tick, rb.end_tick,
                "{}: emulated end differs",
                c.kernel
            );
            assert_eq!(ra.oob, rb.oob, "{}: out-of-bounds reports differ", c.kernel);
            if c.kernel == "wide_index" {
                // The wide indices (two sites) are refused and reported, not wrapped into
                // another region.
                assert!(ra.oob.len() >= 2, "{:?}", ra.oob);
            }
            assert_eq!(format!("{ra:?}"), format!("{rb:?}"));
            if timed {
                assert!(ra.end_tick.is_some_and(|t| t > 5 * 65536), "{}", c.kernel);
            }
        }
    }
    // The stencil's edge reads are reported (one site per direction) by both.
    let st = cases().into_iter().find(|c| c.kernel == "stencil").unwrap();
    let r = run_case(&jit, &m, &report, &st, false).1.unwrap();
    assert!(!r.oob.is_empty());
}

#[test]
fn a_failed_bounds_check_gives_the_same_fault_report() {
    let m = compile("kernels.cl", KERNELS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let interp = instance(&m, Backend::Interp, OobMode::Fault);
    let jit = instance(&m, Backend::Jit, OobMode::Fault);
    let st = cases().into_iter().find(|c| c.kernel == "stencil").unwrap();
    let a = run_case(&interp, &m, &report, &st, false);
    let b = run_case(&jit, &m, &report, &st, false);
    let (ea, eb) = (a.1.unwrap_err(), b.1.unwrap_err());
    assert_eq!(ea, eb);
    assert!(
        eb.contains("kernels.cl") && eb.contains("in"),
        "fault names file and argument: {eb}"
    );
    assert_eq!(a.0, b.0);
}

#[test]
fn printf_output_is_the_interpreters() {
    let m = compile("kernels.cl", KERNELS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let mut outs = Vec::new();
    for backend in [Backend::Interp, Backend::Jit] {
        let buf: Arc<parking_lot::Mutex<Vec<u8>>> = Default::default();
        let inst = ProgramInstance::new(
            m.clone(),
            &Board::default_board(),
            ExecConfig {
                threads: 1,
                backend: Some(backend),
                printf: PrintfSink::Capture(buf.clone()),
                ..Default::default()
            },
        )
        .unwrap();
        let c = cases().into_iter().find(|c| c.kernel == "talk").unwrap();
        run_case(&inst, &m, &report, &c, false).1.unwrap();
        outs.push(String::from_utf8(buf.lock().clone()).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
    assert!(outs[1].contains("item 2 sees"), "{}", outs[1]);
}

/// A kernel with one barrier and a local pointer argument compiles (work-items leave the
/// compiled code at the barrier and resume after it) and gives the interpreter's results,
/// counters and emulated end times.
#[test]
fn a_kernel_with_one_barrier_compiles_and_agrees() {
    let m = compile("kernels.cl", KERNELS);
    let k = m
        .kernels
        .iter()
        .position(|f| f.name == "with_barrier")
        .unwrap() as u32;
    let f = &m.kernels[k as usize];
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let mut outs = Vec::new();
    for backend in [Backend::Interp, Backend::Jit] {
        let inst = instance(&m, backend, OobMode::Report);
        assert_eq!(inst.compiled(k), backend == Backend::Jit, "{backend:?}");
        for timed in [false, true] {
            let x = words(&(0..16).collect::<Vec<u32>>());
            let spec = LaunchSpec::ndrange_1d(
                k,
                16,
                Some(8),
                vec![ArgBinding::buffer(&x), ArgBinding::Local(32)],
            );
            let r = if timed {
                let plan = ComputeModel::new(f, report.kernel(&f.name).unwrap()).clock_plan(5);
                inst.run_timed(&spec, &plan)
            } else {
                inst.run(&spec)
            }
            .map(|mut r| {
                r.host_time = Default::default();
                r.workers.clear();
                r
            })
            .expect("runs");
            let got: Vec<u32> = read(&x)
                .chunks(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            assert_eq!(got[0], 1);
            assert_eq!(got[7], 0);
            assert_eq!(got[15], 8);
            outs.push((timed, got, format!("{r:?}")));
        }
    }
    assert_eq!(outs[0], outs[2]);
    assert_eq!(outs[1], outs[3]);
}

/// Kernels with barriers, local memory, `async_work_group_copy` and `wait_group_events`.
const BARRIERS: &str = r#"
#pragma OPENCL FP_CONTRACT OFF
__kernel void tiled_matmul(__global const float *A, __global const float *B, __global float *C, int n) {
    __local float As[16][16];
    __local float Bs[16][16];
    int tx = get_local_id(0), ty = get_local_id(1);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n / 16; t++) {
        As[ty][tx] = A[row * n + t * 16 + tx];
        Bs[ty][tx] = B[(t * 16 + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

__kernel void local_sum(__global const int *in, __global int *out) {
    __local int scratch[32];
    int l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}

__kernel void late_fault(__global int *x, int bad) {
    __local int tmp[16];
    int l = get_local_id(0);
    tmp[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tmp[(l + 1) % get_local_size(0)];
    if (get_global_id(0) == bad)
        v += x[v + 100000];
    barrier(CLK_GLOBAL_MEM_FENCE);
    x[get_global_id(0)] = v + l;
}

__kernel void async_tiles(__global const float *in, __global float *out) {
    __local float tile[16];
    __local float col[8];
    int g = get_group_id(0);
    int l = get_local_id(0);
    event_t e = async_work_group_copy(tile, in + g * 16, 16, 0);
    event_t e2 = async_work_group_strided_copy(col, in + g * 16 + 1, 8, 2, 0);
    wait_group_events(1, &e);
    wait_group_events(1, &e2);
    float v = tile[l] * 2.0f + col[l & 7];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[15 - l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e3 = async_work_group_copy(out + g * 16, tile, 16, 0);
    wait_group_events(1, &e3);
}

__kernel void diverge(__global int *x, int n) {
    if (get_local_id(0) < n)
        barrier(CLK_GLOBAL_MEM_FENCE);
    x[get_global_id(0)] = 1;
}
"#;

fn barrier_cases() -> Vec<Case> {
    let n = 48usize;
    vec![
        Case {
            kernel: "tiled_matmul",
            dims: 2,
            global: [n as u64, n as u64, 1],
            local: Some([16, 16, 1]),
            bufs: vec![floats(n * n, 31), floats(n * n, 32), vec![0; n * n]],
            args: vec![Ok(0), Ok(1), Ok(2), Err(n as i32)],
        },
        Case {
            kernel: "local_sum",
            dims: 1,
            global: [128, 1, 1],
            local: Some([32, 1, 1]),
            bufs: vec![pseudo(128, 33), vec![0; 4]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "late_fault",
            dims: 1,
            global: [64, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![pseudo(64, 34).into_iter().map(|x| x % 50).collect()],
            args: vec![Ok(0), Err(2 * 16 + 9)],
        },
        Case {
            kernel: "async_tiles",
            dims: 1,
            global: [64, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![floats(64, 35), vec![0; 64]],
            args: vec![Ok(0), Ok(1)],
        },
    ]
}

/// Kernels with barriers (one, in a loop, a local reduction, a tiled matmul with 16 x 16
/// local tiles) and with `async_work_group_copy`/`wait_group_events` compile, not a silent
/// fallback, and agree with the interpreter bit for bit: outputs, per-site and per-loop
/// counters, emulated end times and out-of-bounds reports, untimed and timed, on one worker
/// and on two.
#[test]
fn barrier_kernels_compile_and_agree_with_the_interpreter_bit_for_bit() {
    let m = compile("barriers.cl", BARRIERS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    for threads in [1, 2] {
        let inst = |backend| {
            ProgramInstance::new(
                m.clone(),
                &Board::default_board(),
                ExecConfig {
                    threads,
                    backend: Some(backend),
                    oob: Some(OobMode::Report),
                    ..Default::default()
                },
            )
            .unwrap()
        };
        let (interp, jit) = (inst(Backend::Interp), inst(Backend::Jit));
        for c in barrier_cases() {
            let k = m.kernels.iter().position(|f| f.name == c.kernel).unwrap() as u32;
            assert!(jit.compiled(k), "{} was not compiled", c.kernel);
            assert!(!interp.compiled(k));
            for timed in [false, true] {
                let a = run_case(&interp, &m, &report, &c, timed);
                let b = run_case(&jit, &m, &report, &c, timed);
                let what = format!("{} (timed {timed}, {threads} threads)", c.kernel);
                assert_eq!(a.0, b.0, "{what}: outputs differ");
                let (ra, rb) = (a.1.as_ref().unwrap(), b.1.as_ref().unwrap());
                assert_eq!(ra.counters, rb.counters, "{what}: counters differ");
                assert_eq!(ra.end_tick, rb.end_tick, "{what}: end differs");
                assert_eq!(format!("{ra:?}"), format!("{rb:?}"), "{what}");
                assert!(ra.counters.sites.iter().any(|s| s.fires > 0), "{what}");
                if timed {
                    assert!(ra.end_tick.is_some_and(|t| t > 5 * 65536), "{what}");
                }
            }
        }
    }
    // The results are right, not only equal: the tiled product against a plain one, the
    // group sums, the async copies.
    let jit = instance(&m, Backend::Jit, OobMode::Report);
    let cs = barrier_cases();
    let f32s = |b: &[u8]| -> Vec<f32> {
        b.chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let u32s = |b: &[u8]| -> Vec<u32> {
        b.chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let mm = run_case(&jit, &m, &report, &cs[0], false).0;
    let (a, b, cm) = (f32s(&mm[0]), f32s(&mm[1]), f32s(&mm[2]));
    let n = 48;
    for (r, c) in [(0, 0), (5, 17), (47, 47), (31, 2)] {
        let mut acc = 0.0f32;
        for k in 0..n {
            acc += a[r * n + k] * b[k * n + c];
        }
        assert_eq!(cm[r * n + c].to_bits(), acc.to_bits(), "C[{r}][{c}]");
    }
    let sums = u32s(&run_case(&jit, &m, &report, &cs[1], false).0[1]);
    let input = pseudo(128, 33);
    for g in 0..4 {
        let want = input[g * 32..(g + 1) * 32]
            .iter()
            .fold(0u32, |s, &x| s.wrapping_add(x));
        assert_eq!(sums[g], want, "group {g}");
    }
    let at = run_case(&jit, &m, &report, &cs[3], false).0;
    let (inp, out) = (f32s(&at[0]), f32s(&at[1]));
    for g in 0..4 {
        for l in 0..16 {
            let want = inp[g * 16 + l] * 2.0 + inp[g * 16 + 1 + 2 * (l & 7)];
            assert_eq!(out[g * 16 + 15 - l].to_bits(), want.to_bits(), "{g}/{l}");
        }
    }
}

/// A fault in a later work-item of a group with barriers (work-item 9 of group 2, after the
/// first barrier, when the earlier items already wait at the second) gives the interpreter's
/// fault report and leaves the same memory; in `OobMode::Report` the logged access is the
/// same; a barrier reached by only some items of a group is reported alike.
#[test]
fn a_fault_after_a_compiled_barrier_is_the_interpreters() {
    let m = compile("barriers.cl", BARRIERS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let c = barrier_cases().remove(2);
    assert_eq!(c.kernel, "late_fault");
    let k = m
        .kernels
        .iter()
        .position(|f| f.name == "late_fault")
        .unwrap() as u32;
    for timed in [false, true] {
        let interp = instance(&m, Backend::Interp, OobMode::Fault);
        let jit = instance(&m, Backend::Jit, OobMode::Fault);
        assert!(jit.compiled(k));
        let a = run_case(&interp, &m, &report, &c, timed);
        let b = run_case(&jit, &m, &report, &c, timed);
        let (ea, eb) = (a.1.unwrap_err(), b.1.unwrap_err());
        assert_eq!(ea, eb);
        assert!(eb.contains("work-item 41,0,0"), "{eb}");
        assert!(eb.contains("barriers.cl"), "{eb}");
        assert_eq!(a.0, b.0, "timed {timed}");
        let interp = instance(&m, Backend::Interp, OobMode::Report);
        let jit = instance(&m, Backend::Jit, OobMode::Report);
        let a = run_case(&interp, &m, &report, &c, timed);
        let b = run_case(&jit, &m, &report, &c, timed);
        let (ra, rb) = (a.1.unwrap(), b.1.unwrap());
        assert_eq!(ra.oob.len(), 1);
        assert_eq!(format!("{ra:?}"), format!("{rb:?}"));
        assert_eq!(a.0, b.0);
    }
    let k = m.kernels.iter().position(|f| f.name == "diverge").unwrap() as u32;
    let c = Case {
        kernel: "diverge",
        dims: 1,
        global: [32, 1, 1],
        local: Some([8, 1, 1]),
        bufs: vec![vec![0; 32]],
        args: vec![Ok(0), Err(3)],
    };
    let interp = instance(&m, Backend::Interp, OobMode::Fault);
    let jit = instance(&m, Backend::Jit, OobMode::Fault);
    assert!(jit.compiled(k));
    let a = run_case(&interp, &m, &report, &c, false);
    let b = run_case(&jit, &m, &report, &c, false);
    let (ea, eb) = (a.1.unwrap_err(), b.1.unwrap_err());
    assert_eq!(ea, eb);
    assert!(eb.contains("barrier"), "{eb}");
    assert_eq!(a.0, b.0);
}

/// Kernels with channels compile: their channel operations call the interpreter's own
/// (`h_fifo`), so results, counters, stalls and cycles agree with the interpreter's.
#[test]
fn channel_kernels_compile_and_agree_with_the_interpreter() {
    let ch = compile(
        "ch.cl",
        "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
         channel int c __attribute__((depth(4)));\n\
         __kernel void p(__global const int *a) { for (int i = 0; i < 4; i++) write_channel_intel(c, a[i] * 3 + 1); }\n\
         __kernel void q(__global int *b) { for (int i = 0; i < 4; i++) b[i] = read_channel_intel(c); bool ok = true; int v = read_channel_nb_intel(c, &ok); b[4] = ok ? v : -1; }\n",
    );
    let report = analysis::analyze(&ch, &Board::default_board().analysis_params());
    let jit = instance(&ch, Backend::Jit, OobMode::Report);
    assert!(jit.compiled(0) && jit.compiled(1));
    let case = |kernel: &'static str, buf: Vec<u32>| Case {
        kernel,
        dims: 1,
        global: [1, 1, 1],
        local: Some([1, 1, 1]),
        bufs: vec![buf],
        args: vec![Ok(0)],
    };
    for timed in [false, true] {
        // Fresh instances (fresh channels) per round; the producer fills the depth-4 channel
        // before the consumer starts (timed: both start at tick 5, so the consumer's reads
        // wait for the producer's write ticks: rule F's stall moves its clock).
        let interp = instance(&ch, Backend::Interp, OobMode::Report);
        let jit = instance(&ch, Backend::Jit, OobMode::Report);
        for (kernel, buf) in [("p", vec![7, 8, 9, 10]), ("q", vec![0; 5])] {
            let c = case(kernel, buf);
            let a = run_case(&interp, &ch, &report, &c, timed);
            let b = run_case(&jit, &ch, &report, &c, timed);
            assert_eq!(a.0, b.0, "{kernel}: outputs differ");
            assert_eq!(format!("{:?}", a.1), format!("{:?}", b.1), "{kernel}");
            if kernel == "q" {
                let got: Vec<u32> = b.0[0]
                    .chunks(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                // The last, non-blocking read finds the channel empty.
                assert_eq!(got, vec![22, 25, 28, 31, u32::MAX]);
            }
        }
    }
}

#[test]
fn the_differential_corpus_agrees_on_both_backends() {
    corpus_on_both_backends();
}

#[test]
fn the_differential_corpus_agrees_with_the_fast_tier_too() {
    // The corpus kernels are small (optimising tier); here every kernel compiles with the
    // fast tier that large kernels get (nextest runs each test in its own process).
    fpgacl_device_model::exec::jit::force_fast_tier();
    corpus_on_both_backends();
}

fn corpus_on_both_backends() {
    const CORPUS: &str = include_str!("diff/corpus.cl");
    let m = compile("corpus.cl", CORPUS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let interp = instance(&m, Backend::Interp, OobMode::Report);
    let jit = instance(&m, Backend::Jit, OobMode::Report);
    let mut input = pseudo(64, 11);
    input[..8].copy_from_slice(&[
        0,
        1,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        2,
        100,
        0xffff_ff00,
    ]);
    let mut compiled = 0;
    for (k, f) in m.kernels.iter().enumerate() {
        if jit.compiled(k as u32) {
            compiled += 1;
            let code = fpgacl_device_model::exec::decode::decode(&m, f).expect("decodes");
            // The other corpus test may force the fast tier (process-wide) at any moment
            // under `cargo test`: the tier is the one `fast_tier` gave before or after.
            let before = fpgacl_device_model::exec::jit::fast_tier(&code);
            let tier = fpgacl_device_model::exec::jit::compile(&code, &m, f).map(|k| k.fast_tier);
            let after = fpgacl_device_model::exec::jit::fast_tier(&code);
            assert!(
                tier == Ok(before) || tier == Ok(after),
                "{}: {tier:?}, fast_tier {before} / {after}",
                f.name
            );
        } else {
            eprintln!("corpus kernel {} falls back to the interpreter", f.name);
        }
        let c = Case {
            kernel: Box::leak(f.name.clone().into_boxed_str()),
            dims: 1,
            global: [64, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![input.clone(), vec![0; 64]],
            args: vec![Ok(0), Ok(1)],
        };
        for timed in [false, true] {
            let a = run_case(&interp, &m, &report, &c, timed);
            let b = run_case(&jit, &m, &report, &c, timed);
            assert_eq!(a.0, b.0, "{}: outputs differ", f.name);
            assert_eq!(
                format!("{:?}", a.1),
                format!("{:?}", b.1),
                "{}: reports differ",
                f.name
            );
        }
    }
    eprintln!("{compiled} of {} corpus kernels compiled", m.kernels.len());
    assert!(compiled * 4 >= m.kernels.len() * 3, "{compiled} compiled");
}

#[test]
fn a_compiled_endless_loop_can_be_aborted() {
    let m = compile(
        "spin.cl",
        "__kernel void spin(__global int *out) {\n\
         int i = 0;\n\
         while (out[0] == 0) { i++; }\n\
         out[1] = i;\n}\n",
    );
    let inst = Arc::new(instance(&m, Backend::Jit, OobMode::Report));
    assert!(inst.compiled(0));
    let buf = words(&[0, 0]);
    let (i2, b2) = (inst.clone(), buf.clone());
    let t = std::thread::spawn(move || i2.run(&LaunchSpec::task(0, vec![ArgBinding::buffer(&b2)])));
    let act = inst.activity().clone();
    let t0 = std::time::Instant::now();
    let id = loop {
        if let Some(k) = act.report().kernels.first() {
            break k.id;
        }
        assert!(t0.elapsed().as_secs() < 10, "the kernel did not start");
        std::thread::yield_now();
    };
    assert!(act.abort(id));
    match t.join().unwrap() {
        Err(RunError::Fault(f)) => {
            assert_eq!(f.kind, FaultKind::Aborted);
            assert_eq!(f.pos.map(|p| p.line), Some(3), "the loop's line");
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn a_large_kernel_compiled_with_the_fast_tier_agrees_bit_for_bit() {
    // The 300-line yardstick kernel is above `FAST_COMPILE_OPS`: Cranelift's fast tier
    // (no mid-end, single-pass register allocation) must agree with the interpreter too.
    let src = fpgacl_device_model::exec::jit::sample_300_line_kernel();
    let m = compile("big.cl", &src);
    let f = &m.kernels[0];
    let code = fpgacl_device_model::exec::decode::decode(&m, f).expect("decodes");
    assert!(code.ops.len() > fpgacl_device_model::exec::jit::FAST_COMPILE_OPS);
    let k = fpgacl_device_model::exec::jit::compile(&code, &m, f).expect("compiles");
    assert!(k.fast_tier);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let interp = instance(&m, Backend::Interp, OobMode::Report);
    let jit = instance(&m, Backend::Jit, OobMode::Report);
    assert!(jit.compiled(0) && !interp.compiled(0));
    let n = 96usize;
    let c = Case {
        kernel: "big",
        dims: 1,
        global: [n as u64, 1, 1],
        local: Some([8, 1, 1]),
        bufs: vec![
            floats(n, 11),
            vec![0; n],
            pseudo(n, 12).into_iter().map(|x| x % 1000).collect(),
        ],
        args: vec![Ok(0), Ok(1), Ok(2), Err(n as i32)],
    };
    for timed in [false, true] {
        let a = run_case(&interp, &m, &report, &c, timed);
        let b = run_case(&jit, &m, &report, &c, timed);
        assert_eq!(a.0, b.0, "timed {timed}: outputs differ");
        let (ra, rb) = (a.1.as_ref().unwrap(), b.1.as_ref().unwrap());
        assert!(ra.counters.sites.iter().any(|s| s.fires > 0));
        assert_eq!(format!("{ra:?}"), format!("{rb:?}"), "timed {timed}");
    }
}

// ---- the inline access counting of compiled code (`Tr::count`) against `Machine::count` ----

/// Kernels for each case of the counters: sequential and repeated addresses, unaligned and
/// word-crossing accesses, bursts that continue, break and reach the longest burst, issue
/// slots across the work-items of a group (and beyond `ISSUE_SLOTS`), statically coalesced
/// groups (rule M0'), single work-item order and a site fired only on some work-items.
const COUNTING: &str = r#"
__kernel void seq_rep(__global const int *a, __global int *b) {
    int i = get_global_id(0);
    b[i] = a[i] + a[0] + a[i & ~3];
}

__kernel void unaligned(__global const char *a, __global int *b) {
    int i = get_global_id(0);
    b[i] = *(__global const int *)(a + 4 * i + 1) + *(__global const short *)(a + 2 * i + 1);
}

__kernel void vec_cross(__global const float *a, __global float4 *b) {
    int i = get_global_id(0);
    float4 x = vload4(0, a + 4 * i + 1);
    float3 y = vload3(i, a + 2);
    b[i] = x + (float4)(y, 1.0f);
}

__kernel void strided(__global const int *a, __global int *b, int s) {
    int i = get_global_id(0);
    b[i] = a[(i * s) & 1023] + a[(i / 3) * 5 & 1023];
}

__kernel void slots(__global const int *a, __global int *b, int n) {
    int i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += a[(k * get_global_size(0) + i) & 4095] + a[(i * n + k) & 4095];
    b[i] = acc;
}

__kernel void unrolled(__global const float *restrict a, __global float *restrict b) {
    int i = get_global_id(0);
    #pragma unroll
    for (int k = 0; k < 16; k++)
        b[i * 16 + k] = a[i * 16 + k] * 2.0f;
}

__kernel void sites4(__global const float *restrict a, __global float *restrict b) {
    int i = get_global_id(0);
    float x0 = a[4 * i];
    float x1 = a[4 * i + 1];
    float x2 = a[4 * i + 2];
    float x3 = a[4 * i + 3];
    b[i] = x0 + x1 + x2 + x3;
}

__kernel void task(__global const int *a, __global int *b, int n) {
    for (int k = 0; k < n; k++)
        b[k] = a[k] + a[k / 2] + a[(k * 7) & 1023];
}

// Runs of accesses (exec::batch) that break: a data-dependent gather, an early exit, an
// atomic (a cold op: runs are counted before it) inside the loop.
__kernel void runs(__global const int *a, __global int *b, volatile __global int *h) {
    int i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < 300; k += 2) {
        int v = a[(i * 300 + k) & 4095];
        if (v % 5 == 0)
            atomic_add(&h[v & 15], 1);
        acc += a[(v & 7) * 64 + k];
        if (v % 97 == 3)
            break;
    }
    b[i] = acc;
}

__kernel void some(__global const int *a, __global long *b) {
    int i = get_global_id(0);
    if (a[i] & 1)
        b[i] = a[i + 1];
    vstore2((long2)(i, i), i, (__global long *)((__global char *)b + 4));
}
"#;

/// A board with memory words of `width` bytes and bursts of at most `burst` words.
fn board(width: u32, burst: u32) -> Board {
    let mut b = Board::default_board();
    b.global_memory[0].width_bytes = width;
    b.global_memory[0].max_burst_words = burst;
    b
}

fn counting_cases() -> Vec<Case> {
    let a = pseudo(4096, 21);
    let floats4k = floats(4096, 22);
    vec![
        Case {
            kernel: "seq_rep",
            dims: 1,
            global: [256, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![a.clone(), vec![0; 256]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "unaligned",
            dims: 1,
            global: [200, 1, 1],
            local: Some([8, 1, 1]),
            bufs: vec![a.clone(), vec![0; 200]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "vec_cross",
            dims: 1,
            global: [200, 1, 1],
            local: Some([20, 1, 1]),
            bufs: vec![floats4k.clone(), vec![0; 800]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "strided",
            dims: 1,
            global: [300, 1, 1],
            local: Some([30, 1, 1]),
            bufs: vec![a.clone(), vec![0; 300]],
            args: vec![Ok(0), Ok(1), Err(3)],
        },
        Case {
            kernel: "strided",
            dims: 1,
            global: [300, 1, 1],
            local: Some([300, 1, 1]),
            bufs: vec![a.clone(), vec![0; 300]],
            args: vec![Ok(0), Ok(1), Err(1)],
        },
        // 1100 executions per work-item: past ISSUE_SLOTS (1024), where slots are shared.
        Case {
            kernel: "slots",
            dims: 1,
            global: [8, 1, 1],
            local: Some([4, 1, 1]),
            bufs: vec![a.clone(), vec![0; 8]],
            args: vec![Ok(0), Ok(1), Err(1100)],
        },
        Case {
            kernel: "unrolled",
            dims: 1,
            global: [128, 1, 1],
            local: Some([32, 1, 1]),
            bufs: vec![floats4k.clone(), vec![0; 2048]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "sites4",
            dims: 1,
            global: [256, 1, 1],
            local: Some([64, 1, 1]),
            bufs: vec![floats4k.clone(), vec![0; 256]],
            args: vec![Ok(0), Ok(1)],
        },
        Case {
            kernel: "task",
            dims: 1,
            global: [1, 1, 1],
            local: Some([1, 1, 1]),
            bufs: vec![a.clone(), vec![0; 1024]],
            args: vec![Ok(0), Ok(1), Err(1000)],
        },
        Case {
            kernel: "runs",
            dims: 1,
            global: [64, 1, 1],
            local: Some([16, 1, 1]),
            bufs: vec![a.clone(), vec![0; 64], vec![0; 16]],
            args: vec![Ok(0), Ok(1), Ok(2)],
        },
        Case {
            kernel: "some",
            dims: 1,
            global: [100, 1, 1],
            local: Some([10, 1, 1]),
            bufs: vec![a, vec![0; 512]],
            args: vec![Ok(0), Ok(1)],
        },
    ]
}

/// Every counter of every site, the loop counters and the emulated end time of the compiled
/// kernels equal the interpreter's on boards with 64-byte words and 16-word bursts (the
/// default), 4-byte words and 2-word bursts (bursts break at the maximum often), 16-byte
/// words and 1-word bursts, 1-byte words, and 24-byte words (not a power of two: every
/// access takes the out-of-line path).
#[test]
fn inline_counting_matches_the_interpreter_on_every_counter_case() {
    let m = compile("counting.cl", COUNTING);
    let mut seen = SiteCounts::default();
    for (w, mb) in [(64, 16), (4, 2), (16, 1), (1, 4), (24, 3)] {
        let bd = board(w, mb);
        let report = analysis::analyze(&m, &bd.analysis_params());
        let inst = |backend| {
            ProgramInstance::new(
                m.clone(),
                &bd,
                ExecConfig {
                    threads: 1,
                    backend: Some(backend),
                    oob: Some(OobMode::Report),
                    ..Default::default()
                },
            )
            .expect("decodes")
        };
        let (interp, jit) = (inst(Backend::Interp), inst(Backend::Jit));
        for c in counting_cases() {
            let k = m.kernels.iter().position(|f| f.name == c.kernel).unwrap() as u32;
            assert!(jit.compiled(k), "{} was not compiled", c.kernel);
            for timed in [false, true] {
                let a = run_case(&interp, &m, &report, &c, timed);
                let b = run_case(&jit, &m, &report, &c, timed);
                let what = format!(
                    "{} on {w}-byte words, bursts {mb} (timed {timed})",
                    c.kernel
                );
                assert_eq!(a.0, b.0, "{what}: outputs differ");
                let (ra, rb) = (a.1.as_ref().unwrap(), b.1.as_ref().unwrap());
                assert_eq!(ra.counters, rb.counters, "{what}: counters differ");
                assert_eq!(ra.end_tick, rb.end_tick, "{what}: emulated end differs");
                assert_eq!(format!("{ra:?}"), format!("{rb:?}"), "{what}");
                for s in &ra.counters.sites {
                    seen.sequential += s.sequential;
                    seen.repeated += s.repeated;
                    seen.unaligned += s.unaligned;
                    seen.crossing += s.crossing;
                    seen.bursts += s.bursts;
                    seen.words += s.words;
                    if s.max_burst == mb as u64 && s.bursts > 1 {
                        seen.max_burst += 1;
                    }
                }
            }
        }
    }
    // Each case was exercised (not only agreed on while zero).
    assert!(seen.sequential > 0 && seen.repeated > 0, "{seen:?}");
    assert!(seen.unaligned > 0 && seen.crossing > 0, "{seen:?}");
    assert!(seen.bursts > 0 && seen.words > seen.bursts, "{seen:?}");
    assert!(
        seen.max_burst > 0,
        "no site reached the longest burst: {seen:?}"
    );
}

/// Rows of burst trackers are added as issue slots appear (the out-of-line `h_rows`) and reset
/// per work-group; a second run of the same instance starts from fresh trackers. Many groups
/// of many work-items, two workers.
#[test]
fn inline_counting_agrees_across_groups_and_threads() {
    let m = compile("counting.cl", COUNTING);
    let bd = board(8, 4);
    let report = analysis::analyze(&m, &bd.analysis_params());
    let inst = |backend, threads| {
        ProgramInstance::new(
            m.clone(),
            &bd,
            ExecConfig {
                threads,
                backend: Some(backend),
                oob: Some(OobMode::Report),
                ..Default::default()
            },
        )
        .expect("decodes")
    };
    let c = Case {
        kernel: "slots",
        dims: 1,
        global: [64, 1, 1],
        local: Some([8, 1, 1]),
        bufs: vec![pseudo(4096, 23), vec![0; 64]],
        args: vec![Ok(0), Ok(1), Err(40)],
    };
    let reference = run_case(&inst(Backend::Interp, 1), &m, &report, &c, true);
    for threads in [1, 2] {
        let jit = inst(Backend::Jit, threads);
        for _ in 0..2 {
            let b = run_case(&jit, &m, &report, &c, true);
            assert_eq!(reference.0, b.0);
            let (ra, rb) = (reference.1.as_ref().unwrap(), b.1.as_ref().unwrap());
            assert_eq!(ra.counters, rb.counters, "{threads} threads");
            if threads == 1 {
                // (Timed runs on several workers give no single end time.)
                assert_eq!(ra.end_tick, rb.end_tick);
            }
        }
    }
}

/// `sqrt` and `rsqrt` (compiled inline) and `mad` (scalar and vector, through the helper) give
/// the interpreter's bits on special and random inputs: zeros, infinities, quiet and
/// signalling NaNs (also as pairs: which NaN a product returns), negatives, subnormals,
/// extremes.
#[test]
fn inline_sqrt_rsqrt_and_mad_give_the_interpreters_bits() {
    let m = compile(
        "roots.cl",
        "__kernel void roots(__global const uint *in, __global uint *out) {\n\
         int i = get_global_id(0);\n\
         float x = as_float(in[i]);\n\
         double y = (double)x * 1.25;\n\
         out[6 * i] = as_uint(sqrt(x));\n\
         out[6 * i + 1] = as_uint(rsqrt(x));\n\
         ulong s = as_ulong(sqrt(y)), r = as_ulong(rsqrt(y));\n\
         out[6 * i + 2] = (uint)s; out[6 * i + 3] = (uint)(s >> 32);\n\
         out[6 * i + 4] = (uint)r; out[6 * i + 5] = (uint)(r >> 32);\n\
         float u = as_float(in[(i + 1) & 63]), v = as_float(in[(i + 7) & 63]);\n\
         float m = mad(x, u, v);\n\
         float3 mv = mad((float3)(x, u, m), (float3)(v, 2.0f, x), (float3)(u, x, 1.0f));\n\
         ulong md = as_ulong(mad(y, (double)u, (double)v));\n\
         out[384 + 6 * i] = as_uint(m); out[384 + 6 * i + 1] = as_uint(mv.x);\n\
         out[384 + 6 * i + 2] = as_uint(mv.y); out[384 + 6 * i + 3] = as_uint(mv.z);\n\
         out[384 + 6 * i + 4] = (uint)md; out[384 + 6 * i + 5] = (uint)(md >> 32);\n\
         float2 sv = rsqrt((float2)(x, u));\n\
         out[768 + 2 * i] = as_uint(sv.x); out[768 + 2 * i + 1] = as_uint(sv.y);\n}\n",
    );
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let mut input = pseudo(64, 31);
    input[..16].copy_from_slice(&[
        0,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7fa0_0001,
        0xffc0_0001,
        1,
        0x0080_0000,
        0x7f7f_ffff,
        0xbf80_0000,
        0x4080_0000,
        0x4000_0000,
        0x3f80_0000,
        0x0000_ffff,
        0x3e80_0001,
    ]);
    let c = Case {
        kernel: "roots",
        dims: 1,
        global: [64, 1, 1],
        local: Some([16, 1, 1]),
        bufs: vec![input, vec![0; 64 * 14]],
        args: vec![Ok(0), Ok(1)],
    };
    let interp = instance(&m, Backend::Interp, OobMode::Report);
    let jit = instance(&m, Backend::Jit, OobMode::Report);
    assert!(jit.compiled(0));
    let a = run_case(&interp, &m, &report, &c, false);
    let b = run_case(&jit, &m, &report, &c, false);
    assert_eq!(a.0, b.0, "results differ");
    assert_eq!(format!("{:?}", a.1), format!("{:?}", b.1));
    // sqrt(4) = 2 and rsqrt(4) = 0.5 (input 11).
    let out = &b.0[1];
    let word = |j: usize| u32::from_le_bytes(out[4 * j..4 * j + 4].try_into().unwrap());
    assert_eq!(f32::from_bits(word(6 * 11)), 2.0);
    assert_eq!(f32::from_bits(word(6 * 11 + 1)), 0.5);
}

/// `rotate`, `min` and `max` of every integer width and signedness, compiled inline, give the
/// interpreter's bits (rotations by 0, by the width and beyond it, negative amounts; signed
/// and unsigned orders), scalars and vectors; `mad` of NaNs gives the canonical NaN on both.
#[test]
fn inline_integer_builtins_and_mad_nans_give_the_interpreters_bits() {
    let m = compile(
        "ints.cl",
        "__kernel void ints(__global const uint *in, __global uint *out) {\n\
         int i = get_global_id(0);\n\
         uint a = in[i], b = in[(i * 7 + 3) & 63];\n\
         ulong la = ((ulong)a << 32) | b, lb = ((ulong)b << 29) ^ a;\n\
         __global uint *o = out + 16 * i;\n\
         o[0] = rotate(a, b); o[1] = (uint)rotate((int)a, (int)b);\n\
         o[2] = (uint)rotate((uchar)a, (uchar)b); o[3] = (uint)(int)rotate((char)a, (char)b);\n\
         o[4] = (uint)rotate((ushort)a, (ushort)b); o[5] = (uint)(int)rotate((short)a, (short)b);\n\
         ulong r = rotate(la, lb); o[6] = (uint)r; o[7] = (uint)(r >> 32);\n\
         o[8] = min(a, b); o[9] = (uint)min((int)a, (int)b); o[10] = max(a, b);\n\
         o[11] = (uint)max((int)a, (int)b);\n\
         long lm = min((long)la, (long)lb); o[12] = (uint)lm ^ (uint)(lm >> 32);\n\
         o[13] = (uint)(int)max((char)a, (char)b) ^ (uint)min((ushort)a, (ushort)b);\n\
         uint4 v = rotate((uint4)(a, b, a ^ b, 1u), (uint4)(b, a, 31u, 33u));\n\
         int2 w = max((int2)((int)a, (int)b), (int2)((int)b, -5));\n\
         o[14] = v.x ^ v.y ^ v.z ^ v.w ^ (uint)w.x;\n\
         o[15] = as_uint(mad(as_float(a), as_float(b), as_float(in[i ^ 1]))) ^ (uint)w.y;\n}\n",
    );
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let mut input = pseudo(64, 41);
    input[..12].copy_from_slice(&[
        0,
        32,
        0xffff_ffff,
        0x8000_0000,
        64,
        0x7fc0_0000,
        0xffc0_0001,
        0x7fa0_0001,
        7,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0001,
    ]);
    let c = Case {
        kernel: "ints",
        dims: 1,
        global: [64, 1, 1],
        local: Some([16, 1, 1]),
        bufs: vec![input, vec![0; 64 * 16]],
        args: vec![Ok(0), Ok(1)],
    };
    let interp = instance(&m, Backend::Interp, OobMode::Report);
    let jit = instance(&m, Backend::Jit, OobMode::Report);
    assert!(jit.compiled(0));
    let a = run_case(&interp, &m, &report, &c, false);
    let b = run_case(&jit, &m, &report, &c, false);
    assert_eq!(a.0, b.0, "results differ");
    let out = &b.0[1];
    let word = |j: usize| u32::from_le_bytes(out[4 * j..4 * j + 4].try_into().unwrap());
    // Item 0: a = 0, b = in[3] = 0x8000_0000: rotate(0, ..) = 0, min = 0, max = 0x8000_0000,
    // signed max(0, INT_MIN) = 0.
    assert_eq!(word(0), 0);
    assert_eq!(word(10), 0x8000_0000);
    assert_eq!(word(11), 0);
    // Item 1: a = 32 rotated by in[10] = 0xff80_0000 (amount 0 mod 32).
    assert_eq!(word(16), 32);
}

/// Kernels for the compiled work-item loop (`jit::run_items`: one call runs a whole group):
/// a fault in one work-item of one group, private memory that every item must see fresh, a
/// cold op (an atomic) in the loop, two-dimensional groups.
const ITEM_LOOP: &str = r#"
__kernel void fault_at(__global int *x, int bad) {
    int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    x[i == bad ? 100000 : i] = i + (int)get_local_id(0);
}

__kernel void groups2d(__global const int *in, __global int *out, __global int *cnt, int w) {
    int x = get_global_id(0);
    int y = get_global_id(1);
    int priv[8];
    int stale = priv[(x + y) & 7];
    for (int k = 0; k < 8; k++)
        priv[k] = in[(y * w + x + k) & 255] + (int)get_local_id(0) * k;
    int s = stale;
    for (int k = 0; k < 8; k++)
        s += priv[(k * 3 + x) & 7];
    out[y * w + x] = s + (int)get_group_id(0) * 1000 + (int)get_group_id(1) * 100000
        + (int)get_local_id(1) * 7;
    atomic_add(cnt, s & 15);
}
"#;

/// A fault in work-item 37 of group 2 (and in a 2-D group) is reported for that work-item by
/// the compiled work-item loop, with the interpreter's report; in `OobMode::Report` the
/// logged first access is the same too.
#[test]
fn a_fault_inside_a_compiled_work_item_loop_names_the_faulting_item() {
    let m = compile("loop.cl", ITEM_LOOP);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    // 1-D: groups of 64, the fault in local id 37 of group 2 (global id 165); 2-D: groups of
    // 8 x 4, the fault in group (1, 2), local id (5, 1): global id (13, 9).
    let one_d = Case {
        kernel: "fault_at",
        dims: 1,
        global: [256, 1, 1],
        local: Some([64, 1, 1]),
        bufs: vec![vec![0; 256]],
        args: vec![Ok(0), Err(2 * 64 + 37)],
    };
    let two_d = Case {
        kernel: "fault_at",
        dims: 2,
        global: [32, 16, 1],
        local: Some([8, 4, 1]),
        bufs: vec![vec![0; 512]],
        args: vec![Ok(0), Err(9 * 32 + 13)],
    };
    for (c, item) in [(one_d, "165,0,0"), (two_d, "13,9,0")] {
        let interp = instance(&m, Backend::Interp, OobMode::Fault);
        let jit = instance(&m, Backend::Jit, OobMode::Fault);
        assert!(jit.compiled(0));
        let a = run_case(&interp, &m, &report, &c, true);
        let b = run_case(&jit, &m, &report, &c, true);
        let (ea, eb) = (a.1.unwrap_err(), b.1.unwrap_err());
        assert_eq!(ea, eb);
        assert!(eb.contains(&format!("work-item {item}")), "{eb}");
        assert_eq!(
            a.0, b.0,
            "the items before the fault ran, the later ones did not"
        );
        let interp = instance(&m, Backend::Interp, OobMode::Report);
        let jit = instance(&m, Backend::Jit, OobMode::Report);
        let a = run_case(&interp, &m, &report, &c, true);
        let b = run_case(&jit, &m, &report, &c, true);
        let (ra, rb) = (a.1.unwrap(), b.1.unwrap());
        assert_eq!(format!("{:?}", ra.oob), format!("{:?}", rb.oob));
        assert_eq!(ra.oob.len(), 1);
        assert!(format!("{:?}", rb.oob).contains(&item.replace(',', ", ")));
        assert_eq!(ra.counters, rb.counters);
        assert_eq!(ra.end_tick, rb.end_tick);
        assert_eq!(a.0, b.0);
    }
}

/// Many two-dimensional groups through the compiled work-item loop agree with the interpreter
/// bit for bit (outputs, counters, emulated end time), on one and two workers: each item sees
/// fresh private memory and its own ids, the atomic (a cold op) counts as in the interpreter.
#[test]
fn multi_group_launches_through_the_compiled_item_loop_agree_bit_for_bit() {
    let m = compile("loop.cl", ITEM_LOOP);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let c = Case {
        kernel: "groups2d",
        dims: 2,
        global: [16, 12, 1],
        local: Some([4, 3, 1]),
        bufs: vec![pseudo(256, 5), vec![0; 16 * 12], vec![0; 1]],
        args: vec![Ok(0), Ok(1), Ok(2), Err(16)],
    };
    let inst = |backend, threads| {
        ProgramInstance::new(
            m.clone(),
            &Board::default_board(),
            ExecConfig {
                threads,
                backend: Some(backend),
                oob: Some(OobMode::Fault),
                ..Default::default()
            },
        )
        .expect("decodes")
    };
    for timed in [false, true] {
        let reference = run_case(&inst(Backend::Interp, 1), &m, &report, &c, timed);
        let ra = reference.1.as_ref().expect("runs");
        for threads in [1, 2] {
            let jit = inst(Backend::Jit, threads);
            assert!(jit.compiled(1));
            let b = run_case(&jit, &m, &report, &c, timed);
            assert_eq!(reference.0, b.0, "{threads} threads, timed {timed}");
            let rb = b.1.as_ref().expect("runs");
            assert_eq!(ra.counters, rb.counters, "{threads} threads, timed {timed}");
            if threads == 1 {
                assert_eq!(ra.end_tick, rb.end_tick);
            }
        }
    }
}

const SINGLE: &str = r#"
__kernel void sum_loop(__global const int *restrict a, __global int *restrict out, int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) {
        s += a[i];
        out[(i % 7) + 1] = s;
    }
    out[0] = s;
}
"#;

/// A single work-item kernel runs groups of one work-item through its own variant of the
/// compiled code (no issue counters, `jit::Spec::single`) and groups of several through the
/// general one, compiled at that launch: task, NDRange and task launches again, untimed and
/// timed, give the interpreter's outputs, counters and end times on both.
#[test]
fn a_single_work_item_kernel_agrees_in_tasks_and_in_groups_of_several() {
    let m = compile("single.cl", SINGLE);
    assert!(m.kernels[0].single_work_item);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    let case = |global: u64, local: u64| Case {
        kernel: "sum_loop",
        dims: 1,
        global: [global, 1, 1],
        local: Some([local, 1, 1]),
        bufs: vec![pseudo(600, 9), vec![0; 8]],
        args: vec![Ok(0), Ok(1), Err(600)],
    };
    let interp = instance(&m, Backend::Interp, OobMode::Fault);
    let jit = instance(&m, Backend::Jit, OobMode::Fault);
    assert!(jit.compiled(0));
    for timed in [false, true] {
        for (g, l) in [(1, 1), (8, 4), (1, 1), (3, 1)] {
            let a = run_case(&interp, &m, &report, &case(g, l), timed);
            let b = run_case(&jit, &m, &report, &case(g, l), timed);
            assert_eq!(a.0, b.0, "global {g} local {l} timed {timed}");
            let (ra, rb) = (a.1.expect("runs"), b.1.expect("runs"));
            assert_eq!(
                ra.counters, rb.counters,
                "global {g} local {l} timed {timed}"
            );
            assert_eq!(
                ra.end_tick, rb.end_tick,
                "global {g} local {l} timed {timed}"
            );
        }
    }
}

/// Counted loops the compiled code runs in chunks (`exec/jit/counted.rs`), at their edges: a
/// store in the loop, a negative multiplier, a step of 3, a start below zero, float4 loads
/// through pointers, a loop-invariant address in the loop (stride 0), local memory after a
/// barrier, loops longer than the poll interval (4096 head visits) and than the issue
/// counters (1024 slots) in groups of several work-items, and accesses that leave their
/// buffer in the middle of a loop. Outputs, counters, emulated times and out-of-bounds
/// reports (reported and faulting) must be the interpreter's.
const CHUNK_KERNELS: &str = r#"
__kernel void chunk_mix(__global const float *a, __global const int *b, __global float *o,
                        int n, int m) {
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; k += 3) {
        s += a[i * m + k] * (float)b[m - 1 - k];
        o[i * m + k] = s;
    }
    for (int k = -5; k < n - 5; k++)
        s += a[k + 5 + i];
    o[i * m + 1] += s;
}

__kernel void chunk_long(__global const int *a, __global int *o, int n) {
    int i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < n; k++)
        s += a[k] ^ i;
    o[i] = s;
}

__kernel void chunk_vec(__global const float4 *p, __global float4 *o, int n) {
    int i = get_global_id(0);
    float4 acc = (float4)(0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = p[j];
        acc += q * p[i];
        o[i * n + j] = acc;
    }
}

__kernel void chunk_items(__global const float *a, __global const int *b, __global float *o,
                          int m) {
    int i = get_global_id(0);
    int j = get_global_id(1);
    int l = get_local_id(0);
    o[j * m + i] = a[j * m + i] * 2.0f + (float)b[m - 1 - i] + a[l + 3];
}

__kernel void chunk_items4(__global const float4 *p, __global float4 *o) {
    size_t i = get_global_id(0);
    o[i] = p[i] * p[i + 1];
}

__kernel void chunk_size_t(__global const int *a, __global int *o, int w, int n) {
    size_t i = get_global_id(0);
    size_t j = get_global_id(1);
    int s = a[j * w + i] * 3 + a[i + 1];
    for (int k = 0; k < n; k++)
        s += a[j * w + k];
    o[j * w + i] = s;
}

__kernel void chunk_disp(__global const float4 *p, __global float *o, int n) {
    int i = get_global_id(0);
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += p[j].y * p[j + 1].z + p[i].w;
    o[i] = s;
}

__kernel void chunk_uint(__global const uint *a, __global uint *o, uint n, int m) {
    uint i = get_global_id(0);
    uint s = 0u;
    for (uint k = 0u; k < n; k++)
        s += a[k] * 3u + a[i * 2u + k];
    for (int k = 1; k <= m; k += 2)
        s ^= a[k + 2 * i];
    for (uint k = 4u; k <= n; k++)
        o[i * n + k - 4u] = s + k;
}

__kernel void chunk_local(__global const int *a, __global int *o, int n) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int k = 0; k < n; k++)
        s += t[k] * k;
    o[get_global_id(0)] = s;
}
"#;

fn chunk_cases() -> Vec<Case> {
    let m = 40usize;
    let g = 6usize;
    let mix = |n: i32, local: Option<[u64; 3]>| Case {
        kernel: "chunk_mix",
        dims: 1,
        global: [g as u64, 1, 1],
        local,
        bufs: vec![floats(g * m, 31), pseudo(m, 32), vec![0; g * m]],
        args: vec![Ok(0), Ok(1), Ok(2), Err(n), Err(m as i32)],
    };
    let long = |n: i32, global: u64, local: Option<[u64; 3]>| Case {
        kernel: "chunk_long",
        dims: 1,
        global: [global, 1, 1],
        local,
        bufs: vec![pseudo(10_000, 33), vec![0; global as usize]],
        args: vec![Ok(0), Ok(1), Err(n)],
    };
    let vec4 = |n: i32| Case {
        kernel: "chunk_vec",
        dims: 1,
        global: [8, 1, 1],
        local: Some([4, 1, 1]),
        bufs: vec![floats(4 * 40, 34), vec![0; 4 * 8 * 40]],
        args: vec![Ok(0), Ok(1), Err(n)],
    };
    let local = |n: i32| Case {
        kernel: "chunk_local",
        dims: 1,
        global: [128, 1, 1],
        local: Some([64, 1, 1]),
        bufs: vec![pseudo(128, 35), vec![0; 128]],
        args: vec![Ok(0), Ok(1), Err(n)],
    };
    let items = |bsize: usize, local: Option<[u64; 3]>| Case {
        kernel: "chunk_items",
        dims: 2,
        global: [m as u64, 3, 1],
        local,
        bufs: vec![floats(3 * m, 36), pseudo(bsize, 37), vec![0; 3 * m]],
        args: vec![Ok(0), Ok(1), Ok(2), Err(m as i32)],
    };
    let items4 = |n: usize, local: Option<[u64; 3]>| Case {
        kernel: "chunk_items4",
        dims: 1,
        global: [64, 1, 1],
        local,
        bufs: vec![floats(4 * n, 38), vec![0; 4 * 64]],
        args: vec![Ok(0), Ok(1)],
    };
    let size_t = |n: i32, local: Option<[u64; 3]>| Case {
        kernel: "chunk_size_t",
        dims: 2,
        global: [m as u64, 3, 1],
        local,
        bufs: vec![pseudo(3 * m + 1, 39), vec![0; 3 * m]],
        args: vec![Ok(0), Ok(1), Err(m as i32), Err(n)],
    };
    let disp = |n: i32| Case {
        kernel: "chunk_disp",
        dims: 1,
        global: [8, 1, 1],
        local: Some([4, 1, 1]),
        bufs: vec![floats(4 * 41, 40), vec![0; 8]],
        args: vec![Ok(0), Ok(1), Err(n)],
    };
    let uint = |n: i32, m: i32, global: u64, local: Option<[u64; 3]>| Case {
        kernel: "chunk_uint",
        dims: 1,
        global: [global, 1, 1],
        local,
        bufs: vec![pseudo(64, 41), vec![0; 64 * 3]],
        args: vec![Ok(0), Ok(1), Err(n), Err(m)],
    };
    vec![
        uint(40, 39, 6, Some([3, 1, 1])),
        uint(40, 39, 3, Some([1, 1, 1])),
        // a[i * 2 + k] and a[k + 2 * i] leave their buffer in the last items; the stores
        // leave theirs in the last item.
        uint(50, 61, 4, Some([2, 1, 1])),
        // An unsigned loop whose bound is below its start, and an empty `<=` loop.
        uint(2, 0, 2, Some([2, 1, 1])),
        disp(40),
        // p[j + 1] leaves its buffer in the last iteration.
        disp(41),
        size_t(m as i32, Some([8, 1, 1])),
        size_t(m as i32, Some([1, 1, 1])),
        // a[j * w + k] leaves its buffer in the last row.
        size_t(m as i32 + 9, Some([4, 3, 1])),
        items(m, Some([8, 1, 1])),
        items(m, Some([20, 3, 1])),
        items(m, Some([1, 1, 1])),
        // b[m - 1 - i] leaves its buffer below in the middle of a row.
        items(m - 5, Some([10, 3, 1])),
        items4(65, Some([16, 1, 1])),
        items4(65, Some([64, 1, 1])),
        // p[i + 1] leaves its buffer in the last item.
        items4(64, Some([32, 1, 1])),
        mix(m as i32, Some([3, 1, 1])),
        mix(m as i32, Some([1, 1, 1])),
        // b[m - 1 - k] leaves its buffer below, a[i * m + k] above (last item) mid-loop.
        mix(m as i32 + 7, Some([2, 1, 1])),
        mix(m as i32 + 7, Some([1, 1, 1])),
        long(10_000, 8, Some([4, 1, 1])),
        long(10_000, 3, Some([1, 1, 1])),
        long(9_000, 1, None),
        // a[k] runs past its 10,000 elements after 10,000 iterations.
        long(10_013, 2, Some([2, 1, 1])),
        vec4(40),
        vec4(43),
        local(64),
        local(70),
    ]
}

#[test]
fn counted_loop_chunks_agree_with_the_interpreter_at_their_edges() {
    let m = compile("chunks.cl", CHUNK_KERNELS);
    let report = analysis::analyze(&m, &Board::default_board().analysis_params());
    for oob in [OobMode::Report, OobMode::Fault] {
        let interp = instance(&m, Backend::Interp, oob);
        let jit = instance(&m, Backend::Jit, oob);
        for (i, c) in chunk_cases().iter().enumerate() {
            let k = m.kernels.iter().position(|f| f.name == c.kernel).unwrap() as u32;
            for timed in [false, true] {
                let a = run_case(&interp, &m, &report, c, timed);
                let b = run_case(&jit, &m, &report, c, timed);
                assert!(jit.compiled(k), "{} was not compiled", c.kernel);
                let what = format!("case {i} {} ({oob:?}, timed {timed})", c.kernel);
                assert_eq!(a.0, b.0, "{what}: outputs differ");
                match (&a.1, &b.1) {
                    (Ok(ra), Ok(rb)) => {
                        assert_eq!(ra.counters, rb.counters, "{what}: counters differ");
                        assert_eq!(ra.end_tick, rb.end_tick, "{what}: emulated end differs");
                        assert_eq!(ra.oob, rb.oob, "{what}: out-of-bounds reports differ");
                        assert_eq!(format!("{ra:?}"), format!("{rb:?}"), "{what}");
                    }
                    (Err(ea), Err(eb)) => assert_eq!(ea, eb, "{what}: faults differ"),
                    (ra, rb) => panic!("{what}: one backend faulted: {ra:?} / {rb:?}"),
                }
            }
        }
    }
}
