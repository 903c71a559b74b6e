//! Interpreter workloads for performance work: vector add, naive matmul, mandelbrot, n-body,
//! a single work-item loop, a tiled matmul (16 x 16 tiles in local memory, barriers) and a
//! local-memory tree reduction (barriers), compiled from OpenCL C and run as the runtime runs
//! them (timed, with the kernel's clock plan, then evaluated by the timing model).
//!
//! For each workload it prints the CPU time of the run and a fingerprint (FNV-1a) of the
//! output bytes, the counters, the end tick and the evaluated cycles: a change to the executor
//! must leave every fingerprint unchanged (results, counters and emulated times bit-identical).
//!
//! `cargo run --release -p fpgacl-device-model --example interp_bench [small|large] [names...]`
//! (`small`: sizes for `valgrind --tool=callgrind`; `FPGACL_THREADS` sets the worker count,
//! default 1).

use fpgacl_device_model::timing::{self, EvalOptions};
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::analysis;
use fpgacl_kernel_compiler::SourceFile;
use std::sync::Arc;
use std::time::Instant;

const SOURCE: &str = r#"
__kernel void vector_add(__global const float *x, __global const float *y, __global float *restrict z) {
    int i = get_global_id(0);
    z[i] = x[i] + y[i];
}
__kernel void matmul(__global const float *a, __global const float *b, __global float *restrict c, int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = s;
}
__kernel void mandelbrot(__global int *restrict out, int w, int h, int maxit) {
    int px = get_global_id(0);
    int py = get_global_id(1);
    float cx = -2.0f + 3.0f * px / w;
    float cy = -1.5f + 3.0f * py / h;
    float x = 0.0f, y = 0.0f;
    int it = 0;
    while (it < maxit && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        it++;
    }
    out[py * w + px] = it;
}
__kernel void nbody(__global const float4 *pos, __global float4 *restrict acc, int n, float eps) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps;
        float inv = rsqrt(r2);
        float s = q.w * inv * inv * inv;
        a = mad((float3)(s, s, s), d, a);
    }
    acc[i] = (float4)(a, 0.0f);
}
__kernel void task_loop(__global const int *restrict a, __global int *restrict out, int n) {
    int sum = 0;
    uint squares = 0, hash = 0x811C9DC5u;
    for (int i = 0; i < n; ++i) {
        int v = a[i];
        sum += v;
        squares += (uint)(v * v);
        hash = rotate(hash ^ (uint)v, 5u) * 16777619u;
    }
    out[0] = sum;
    out[1] = (int)squares;
    out[2] = (int)hash;
}
__kernel void tiled_matmul(__global const float *a, __global const float *b, __global float *restrict c, int n) {
    __local float ta[16][16];
    __local float tb[16][16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float s = 0.0f;
    for (int t = 0; t < n; t += 16) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            s += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = s;
}
__kernel void local_reduce(__global const int *in, __global int *restrict out) {
    __local int scratch[256];
    int l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 128; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
"#;

struct Fnv(u64);
impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

fn buf<T: Copy>(data: &[T]) -> Arc<DeviceMemory> {
    let n = std::mem::size_of_val(data);
    let m = DeviceMemory::new(n.max(1)).unwrap();
    // SAFETY: plain data.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, n) };
    m.write(0, bytes).unwrap();
    Arc::new(m)
}

fn val<T: Copy>(v: T) -> ArgBinding {
    let n = std::mem::size_of::<T>();
    // SAFETY: plain data.
    let bytes = unsafe { std::slice::from_raw_parts(&v as *const T as *const u8, n) };
    ArgBinding::Value(bytes.to_vec())
}

/// CPU time of this process in seconds (user + system, all threads).
fn cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let tail = s.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = tail.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

struct Work {
    name: &'static str,
    spec: LaunchSpec,
    outputs: Vec<Arc<DeviceMemory>>,
    items: u64,
}

fn workloads(small: bool, m: &fpgacl_kernel_compiler::ir::Module) -> Vec<Work> {
    let k = |name: &str| m.kernels.iter().position(|f| f.name == name).unwrap() as u32;
    let mut w = Vec::new();
    // vector add
    let n: usize = if small { 1 << 14 } else { 1 << 22 };
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 777) as f32).collect();
    let z = buf(&vec![0f32; n]);
    w.push(Work {
        name: "vector_add",
        spec: LaunchSpec::ndrange_1d(
            k("vector_add"),
            n as u64,
            None,
            vec![
                ArgBinding::buffer(&buf(&x)),
                ArgBinding::buffer(&buf(&y)),
                ArgBinding::buffer(&z),
            ],
        ),
        outputs: vec![z],
        items: n as u64,
    });
    // matmul
    let n: usize = if small { 32 } else { 256 };
    let a: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
    let c = buf(&vec![0f32; n * n]);
    let mut spec = LaunchSpec::ndrange_1d(
        k("matmul"),
        0,
        None,
        vec![
            ArgBinding::buffer(&buf(&a)),
            ArgBinding::buffer(&buf(&b)),
            ArgBinding::buffer(&c),
            val(n as i32),
        ],
    );
    spec.work_dim = 2;
    spec.global_size = [n as u64, n as u64, 1];
    spec.local_size = Some([16, 16, 1]);
    w.push(Work {
        name: "matmul",
        spec,
        outputs: vec![c],
        items: (n * n * n) as u64,
    });
    // mandelbrot
    let (wd, maxit): (usize, i32) = if small { (32, 64) } else { (512, 256) };
    let o = buf(&vec![0i32; wd * wd]);
    let mut spec = LaunchSpec::ndrange_1d(
        k("mandelbrot"),
        0,
        None,
        vec![
            ArgBinding::buffer(&o),
            val(wd as i32),
            val(wd as i32),
            val(maxit),
        ],
    );
    spec.work_dim = 2;
    spec.global_size = [wd as u64, wd as u64, 1];
    spec.local_size = Some([16, 16, 1]);
    w.push(Work {
        name: "mandelbrot",
        spec,
        outputs: vec![o],
        items: (wd * wd) as u64,
    });
    // n-body
    let n: usize = if small { 128 } else { 2048 };
    let pos: Vec<f32> = (0..n * 4)
        .map(|i| ((i * 37) % 101) as f32 * 0.1 + if i % 4 == 3 { 1.0 } else { 0.0 })
        .collect();
    let acc = buf(&vec![0f32; n * 4]);
    w.push(Work {
        name: "nbody",
        spec: LaunchSpec::ndrange_1d(
            k("nbody"),
            n as u64,
            Some(64),
            vec![
                ArgBinding::buffer(&buf(&pos)),
                ArgBinding::buffer(&acc),
                val(n as i32),
                val(0.01f32),
            ],
        ),
        outputs: vec![acc],
        items: (n * n) as u64,
    });
    // single work-item loop
    let n: usize = if small { 1 << 14 } else { 1 << 24 };
    let a: Vec<i32> = (0..n)
        .map(|i| ((i as u64 * 2654435761) % 20001) as i32 - 10000)
        .collect();
    let out = buf(&[0i32; 3]);
    w.push(Work {
        name: "task_loop",
        spec: LaunchSpec::task(
            k("task_loop"),
            vec![
                ArgBinding::buffer(&buf(&a)),
                ArgBinding::buffer(&out),
                val(n as i32),
            ],
        ),
        outputs: vec![out],
        items: n as u64,
    });
    // tiled matmul: 16 x 16 tiles in local memory, two barriers per tile
    let n: usize = if small { 32 } else { 256 };
    let a: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
    let c = buf(&vec![0f32; n * n]);
    let mut spec = LaunchSpec::ndrange_1d(
        k("tiled_matmul"),
        0,
        None,
        vec![
            ArgBinding::buffer(&buf(&a)),
            ArgBinding::buffer(&buf(&b)),
            ArgBinding::buffer(&c),
            val(n as i32),
        ],
    );
    spec.work_dim = 2;
    spec.global_size = [n as u64, n as u64, 1];
    spec.local_size = Some([16, 16, 1]);
    w.push(Work {
        name: "tiled_mm",
        spec,
        outputs: vec![c],
        items: (n * n * n) as u64,
    });
    // local reduction: a tree of 8 barriers per group of 256
    let n: usize = if small { 1 << 14 } else { 1 << 22 };
    let a: Vec<i32> = (0..n)
        .map(|i| ((i as u64 * 2654435761) % 20001) as i32 - 10000)
        .collect();
    let out = buf(&vec![0i32; n / 256]);
    w.push(Work {
        name: "reduce",
        spec: LaunchSpec::ndrange_1d(
            k("local_reduce"),
            n as u64,
            Some(256),
            vec![ArgBinding::buffer(&buf(&a)), ArgBinding::buffer(&out)],
        ),
        outputs: vec![out],
        items: n as u64,
    });
    w
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let small = args.iter().any(|a| a == "small");
    let names: Vec<&String> = args
        .iter()
        .filter(|a| *a != "small" && *a != "large")
        .collect();
    let threads = std::env::var("FPGACL_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let board = Board::default_board();
    let out = fpgacl_kernel_compiler::build(
        &[SourceFile {
            name: "bench.cl".into(),
            text: SOURCE.into(),
        }],
        "",
    )
    .expect("options");
    let module = out.module.unwrap_or_else(|| panic!("{}", out.log));
    let report = analysis::analyze(&module, &board.analysis_params());
    let inst = ProgramInstance::new(
        module.clone(),
        &board,
        ExecConfig {
            threads,
            ..Default::default()
        },
    )
    .expect("decodes");
    // Kernels compile as the program loads; any it left for its first launch (too large)
    // compile here, so that no compilation runs while a workload's CPU time is measured.
    for k in 0..module.kernels.len() {
        inst.compiled(k as u32);
    }
    for w in workloads(small, &module) {
        if !names.is_empty() && !names.iter().any(|n| *n == w.name) {
            continue;
        }
        let f = &module.kernels[w.spec.kernel as usize];
        if std::env::var_os("DUMP_OPS").is_some() {
            let code = fpgacl_device_model::exec::decode::decode(&module, f).expect("decodes");
            for (i, op) in code.ops.iter().enumerate() {
                println!("{:4} {:?}", i, op);
            }
        }
        let krep = report.kernel(&f.name).expect("kernel report");
        let group = w.spec.local_size.unwrap_or([1; 3]);
        let model = timing::compute_model_for_group(&module, krep, group).expect("model");
        let plan = model.clock_plan(0);
        let c0 = cpu_secs();
        let t0 = Instant::now();
        let run = inst.run_timed(&w.spec, &plan).expect("runs");
        let wall = t0.elapsed().as_secs_f64();
        let cpu = cpu_secs() - c0;
        let opts = EvalOptions {
            start_cycle: 0,
            end_tick: run.end_tick,
            ..Default::default()
        };
        let t = timing::evaluate(&module, krep, &board, &run, &opts).expect("evaluates");
        let mut h = Fnv::new();
        for o in &w.outputs {
            let mut v = vec![0u8; o.len()];
            o.read(0, &mut v).unwrap();
            h.bytes(&v);
        }
        let out_hash = h.0;
        let mut h = Fnv::new();
        h.bytes(format!("{:?}", run.counters).as_bytes());
        let ctr_hash = h.0;
        println!(
            "{:<11} threads {} cpu {:8.3} s wall {:8.3} s ({:7.2} M items/cpu-s) out {:016x} counters {:016x} end_tick {:?} cycles {}",
            w.name,
            run.threads,
            cpu,
            wall,
            w.items as f64 / cpu.max(1e-9) / 1e6,
            out_hash,
            ctr_hash,
            run.end_tick,
            t.cycles
        );
    }
}
