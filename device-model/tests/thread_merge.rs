//! Parallel NDRange execution merges per-worker state into exactly the 1-worker result: the
//! counters (per site and per loop), the simulated clock's end (timing hook) and the evaluated
//! timing are the same bit for bit for 1, 2, 3 and 4 worker threads, on both backends, and
//! whichever worker ran which work-group.

mod timing_util;

use fpgacl_device_model::timing::{self, EvalOptions};
use fpgacl_device_model::*;
use timing_util::*;

/// Kernels without channels: a loop nest whose outer iterations enter two subloops, one or
/// none (rule C2's floor depends on the clock's per-loop flags), matmul (bursts, loops),
/// mandelbrot (uneven work per group), a local-memory reduction with barriers, strided and
/// repeated accesses (sequential/repeated/burst counters) and global atomics.
const SRC: &str = "\
kernel void nest(global int *restrict out, int n, int m) {\n\
  int s = 0;\n\
  int g = get_global_id(0);\n\
  for (int i = 0; i < n; i++) {\n\
    if ((i + g) % 3 == 0) {\n\
      for (int j = 0; j < m; j++) { s ^= j * i; }\n\
      for (int j = 0; j < m + g % 2; j++) { s += j; }\n\
    } else if ((i + g) % 3 == 1) {\n\
      for (int j = 0; j < m; j++) { s -= j ^ g; }\n\
    }\n\
  }\n\
  out[g] = s;\n\
}\n\
kernel void matmul(global const float *a, global const float *b, global float *c, int n) {\n\
  int row = get_global_id(1), col = get_global_id(0);\n\
  float s = 0.0f;\n\
  for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];\n\
  c[row * n + col] = s;\n\
}\n\
kernel void mandel(global int *out, int w, int maxit) {\n\
  int px = get_global_id(0), py = get_global_id(1);\n\
  float cx = -2.0f + 3.0f * px / w, cy = -1.5f + 3.0f * py / w;\n\
  float x = 0.0f, y = 0.0f;\n\
  int it = 0;\n\
  while (it < maxit && x * x + y * y <= 4.0f) {\n\
    float t = x * x - y * y + cx; y = 2.0f * x * y + cy; x = t; it++;\n\
  }\n\
  out[py * w + px] = it;\n\
}\n\
kernel void reduce(global const int *in, global int *out, local int *tmp) {\n\
  int l = get_local_id(0), n = get_local_size(0);\n\
  tmp[l] = in[get_global_id(0)];\n\
  barrier(CLK_LOCAL_MEM_FENCE);\n\
  for (int s = n / 2; s > 0; s /= 2) {\n\
    if (l < s) tmp[l] += tmp[l + s];\n\
    barrier(CLK_LOCAL_MEM_FENCE);\n\
  }\n\
  if (l == 0) out[get_group_id(0)] = tmp[0];\n\
}\n\
kernel void gather(global const int *in, global int *out, global int *hist, int stride) {\n\
  int g = get_global_id(0);\n\
  int v = in[(g * stride) % 4096] + in[g / 4] + in[g];\n\
  out[g] = v;\n\
  atomic_add(&hist[v & 15], 1);\n\
}\n";

fn ints(n: usize, f: impl Fn(usize) -> i32) -> Vec<i32> {
    (0..n).map(f).collect()
}

fn read_i32(m: &DeviceMemory, n: usize) -> Vec<i32> {
    let mut b = vec![0u8; n * 4];
    m.read(0, &mut b).expect("reads");
    b.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A launch's arguments, and the buffer (with its length in ints) whose contents must agree.
type Args = (Vec<ArgBinding>, std::sync::Arc<DeviceMemory>, usize);

struct Case {
    kernel: &'static str,
    dim: u32,
    global: [u64; 3],
    local: [u64; 3],
    args: Box<dyn Fn() -> Args>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            kernel: "nest",
            dim: 1,
            global: [96, 1, 1],
            local: [4, 1, 1],
            args: Box::new(|| {
                let out = buf(&[0i32; 96]);
                (
                    vec![ArgBinding::buffer(&out), val(40i32), val(3i32)],
                    out,
                    96,
                )
            }),
        },
        Case {
            kernel: "matmul",
            dim: 2,
            global: [32, 32, 1],
            local: [8, 8, 1],
            args: Box::new(|| {
                let a: Vec<f32> = (0..1024).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
                let b: Vec<f32> = (0..1024).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
                let c = buf(&[0f32; 1024]);
                (
                    vec![
                        ArgBinding::buffer(&buf(&a)),
                        ArgBinding::buffer(&buf(&b)),
                        ArgBinding::buffer(&c),
                        val(32i32),
                    ],
                    c,
                    1024,
                )
            }),
        },
        Case {
            kernel: "mandel",
            dim: 2,
            global: [48, 48, 1],
            local: [8, 4, 1],
            args: Box::new(|| {
                let out = buf(&[0i32; 48 * 48]);
                (
                    vec![ArgBinding::buffer(&out), val(48i32), val(64i32)],
                    out,
                    48 * 48,
                )
            }),
        },
        Case {
            kernel: "reduce",
            dim: 1,
            global: [512, 1, 1],
            local: [16, 1, 1],
            args: Box::new(|| {
                let out = buf(&[0i32; 32]);
                (
                    vec![
                        ArgBinding::buffer(&buf(&ints(512, |i| (i * 37 % 101) as i32))),
                        ArgBinding::buffer(&out),
                        ArgBinding::Local(64),
                    ],
                    out,
                    32,
                )
            }),
        },
        Case {
            kernel: "gather",
            dim: 1,
            global: [4096, 1, 1],
            local: [32, 1, 1],
            args: Box::new(|| {
                let hist = buf(&[0i32; 16]);
                (
                    vec![
                        ArgBinding::buffer(&buf(&ints(4096, |i| (i * 13 % 29) as i32))),
                        ArgBinding::buffer(&buf(&[0i32; 4096])),
                        ArgBinding::buffer(&hist),
                        val(17i32),
                    ],
                    hist,
                    16,
                )
            }),
        },
    ]
}

/// What must not depend on the worker count.
#[derive(Debug, PartialEq)]
struct Outcome {
    data: Vec<i32>,
    counters: Counters,
    end_tick: Option<u64>,
    timing: timing::KernelTiming,
}

fn run_case(backend: Backend, threads: usize, c: &Case) -> (Outcome, usize) {
    let (o, r) = run_case_report(backend, threads, c);
    (o, r.threads)
}

fn run_case_report(backend: Backend, threads: usize, c: &Case) -> (Outcome, RunReport) {
    let k = kit_with(
        SRC,
        Board::default_board(),
        ExecConfig {
            threads,
            backend: Some(backend),
            ..Default::default()
        },
    );
    let rep = k.kreport(c.kernel);
    let items = c.global.iter().product::<u64>();
    let model =
        timing::compute_model_for_launch(&k.module, rep, c.local, items).expect("timing model");
    let (args, out, n) = (c.args)();
    let spec = LaunchSpec {
        kernel: k.index(c.kernel),
        work_dim: c.dim,
        global_offset: [0; 3],
        global_size: c.global,
        local_size: Some(c.local),
        args,
    };
    let start = 1000;
    let r = k
        .inst
        .run_timed(&spec, &model.clock_plan(start))
        .expect("runs");
    let t = k.evaluate(
        &r,
        &EvalOptions {
            start_cycle: start,
            end_tick: r.end_tick,
            ..Default::default()
        },
    );
    (
        Outcome {
            data: read_i32(&out, n),
            counters: r.counters.clone(),
            end_tick: r.end_tick,
            timing: t,
        },
        r,
    )
}

fn check_backend(backend: Backend) {
    for c in cases() {
        let (one, t1) = run_case(backend, 1, &c);
        assert_eq!(t1, 1);
        assert!(
            one.end_tick.is_some(),
            "{}: a timed run reports its clock",
            c.kernel
        );
        assert!(
            one.counters.sites.iter().any(|s| s.fires > 0),
            "{}: counted nothing",
            c.kernel
        );
        for threads in [2, 3, 4] {
            let (many, used) = run_case(backend, threads, &c);
            assert_eq!(used, threads, "{}: worker threads used", c.kernel);
            assert_eq!(
                many, one,
                "{} ({backend:?}): {threads} workers differ from 1",
                c.kernel
            );
        }
    }
}

/// `RunReport::workers`: one entry per worker thread, the groups they ran add up to the
/// launch's groups (each group once), every worker finished within the launch, and parallel
/// workers report their threads' CPU time.
#[test]
fn every_group_is_run_by_exactly_one_reported_worker() {
    for backend in [Backend::Interp, Backend::Jit] {
        for c in cases() {
            let groups: u64 = (0..3).map(|d| c.global[d] / c.local[d]).product();
            for threads in [1, 2, 3] {
                let (_, r) = run_case_report(backend, threads, &c);
                let what = format!("{} ({backend:?}, {threads} threads)", c.kernel);
                assert_eq!(r.workers.len(), threads, "{what}: {:?}", r.workers);
                assert_eq!(
                    r.workers.iter().map(|w| w.groups).sum::<u64>(),
                    groups,
                    "{what}: {:?}",
                    r.workers
                );
                for w in &r.workers {
                    assert!(w.done_at <= r.host_time, "{what}: {w:?} after the launch");
                    assert_eq!(w.cpu.is_some(), threads > 1, "{what}: {w:?}");
                }
            }
        }
    }
}

#[test]
fn interp_workers_merge_to_the_one_worker_result() {
    check_backend(Backend::Interp);
}

#[test]
fn jit_workers_merge_to_the_one_worker_result() {
    check_backend(Backend::Jit);
}

/// Work-items 12 (group 1) and 200 on (groups 25-63) write out of bounds; groups 0 and 1 are
/// slow, so other workers meet the later faults first. Every item prints a line.
const FAULTY: &str = "\
kernel void faulty(global int *out, int n) {\n\
  int g = get_global_id(0);\n\
  int s = 0;\n\
  for (int i = 0; i < (g < 16 ? 20000 : 10); i++) s += i ^ g;\n\
  printf(\"item %d sum %d\\n\", g, s);\n\
  out[(g == 12 || g >= 200) ? g + n : g] = s;\n\
}\n";

/// A faulting launch reports the first fault in group order, prints what one worker prints up
/// to it, and leaves the same bytes in memory below the faulting group, for any worker count.
fn first_fault_for(backend: Backend, threads: usize) -> (String, Vec<u8>, Vec<i32>) {
    let printed = std::sync::Arc::new(parking_lot::Mutex::new(Vec::new()));
    let k = kit_with(
        FAULTY,
        Board::default_board(),
        ExecConfig {
            threads,
            backend: Some(backend),
            oob: Some(OobMode::Fault),
            printf: PrintfSink::Capture(printed.clone()),
            ..Default::default()
        },
    );
    let out = buf(&[0i32; 512]);
    let spec = LaunchSpec::ndrange_1d(
        k.index("faulty"),
        512,
        Some(8),
        vec![ArgBinding::buffer(&out), val(100_000i32)],
    );
    let err = match k.inst.run(&spec) {
        Err(RunError::Fault(f)) => f.to_string(),
        other => panic!("expected a fault, got {other:?}"),
    };
    let text = printed.lock().clone();
    // Groups 0 and 1 (items 0-15) ran up to the fault.
    (err, text, read_i32(&out, 16))
}

#[test]
fn the_first_fault_in_group_order_is_reported_for_any_worker_count() {
    for backend in [Backend::Interp, Backend::Jit] {
        let one = first_fault_for(backend, 1);
        assert!(
            one.0.contains("work-item 12,0,0") && one.0.contains("out-of-bounds write"),
            "{}",
            one.0
        );
        let lines = String::from_utf8_lossy(&one.1).lines().count();
        assert_eq!(
            lines, 13,
            "items 0-12 print, then item 12's fault stops the launch"
        );
        for threads in [2, 4] {
            let many = first_fault_for(backend, threads);
            assert_eq!(many, one, "{backend:?}: {threads} workers differ from 1");
        }
    }
}
