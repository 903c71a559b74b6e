//! Non-blocking channel operations are decided in simulated time (rule F of
//! `timing/MODEL.md`), never by host scheduling: a partner that lags behind in HOST time (held
//! up in `printf`, heavy work that costs no cycles, CPU hogs, other worker counts) changes
//! nothing in the counts of successful and failed non-blocking operations, the results, the
//! counters and the emulated times.

mod timing_util;

use fpgacl_device_model::timing::KernelTiming;
use fpgacl_device_model::*;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use timing_util::*;

const NB_PAIR: &str = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
channel int c __attribute__((depth(4)));\n\
// Slow in simulated time (the float product recurrence sets II > 1); prints every 64th value,\n\
// which the test can hold up on the host.\n\
__kernel void producer(__global const float *src, int n) {\n\
  float p = 1.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    p = p * src[i];\n\
    if ((i & 63) == 0) printf(\"p%d\\n\", i);\n\
    write_channel_intel(c, (int)p + i);\n\
  }\n\
}\n\
// Cheap in simulated time (the fully unrolled chain costs no iteration), slow on the host.\n\
__kernel void heavy_producer(__global const float *src, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    int x = i;\n\
    #pragma unroll\n\
    for (int j = 0; j < 2048; j++) x = x * 1103515245 + 12345;\n\
    write_channel_intel(c, (x & 1) + i);\n\
  }\n\
}\n\
__kernel void poller(__global int *out, int n) {\n\
  int got = 0, fails = 0, sum = 0;\n\
  while (got < n) {\n\
    bool valid = false;\n\
    int v = read_channel_nb_intel(c, &valid);\n\
    if (valid) { got++; sum += v; } else { fails++; }\n\
  }\n\
  out[0] = fails;\n\
  out[1] = sum;\n\
}\n\
__kernel void nb_writer(__global int *out, int n) {\n\
  int sent = 0, fails = 0;\n\
  while (sent < n) {\n\
    bool ok = write_channel_nb_intel(c, sent * 3);\n\
    if (ok) { sent++; } else { fails++; }\n\
  }\n\
  out[0] = fails;\n\
}\n\
__kernel void slow_reader(__global const float *src, __global float *dst, int n) {\n\
  float p = 1.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    int v = read_channel_intel(c);\n\
    p = p * src[i] + (float)v;\n\
    if ((i & 63) == 0) printf(\"r%d\\n\", i);\n\
  }\n\
  dst[0] = p;\n\
}\n\
__kernel void heavy_reader(__global const float *src, __global float *dst, int n) {\n\
  int acc = 0;\n\
  for (int i = 0; i < n; i++) {\n\
    int x = read_channel_intel(c);\n\
    #pragma unroll\n\
    for (int j = 0; j < 2048; j++) x = x * 1103515245 + 12345;\n\
    acc += x & 1;\n\
  }\n\
  dst[0] = (float)acc;\n\
}\n";

/// One program instance with a printf sink the test can hold (to stall a kernel on the host).
struct Bench {
    kit: Kit,
    sink: Arc<Mutex<Vec<u8>>>,
}

impl std::ops::Deref for Bench {
    type Target = Kit;
    fn deref(&self) -> &Kit {
        &self.kit
    }
}

fn bench(src: &str, threads: usize) -> Bench {
    let sink = Arc::new(Mutex::new(Vec::new()));
    let kit = kit_with(
        src,
        Board::default_board(),
        ExecConfig {
            threads,
            printf: PrintfSink::Capture(sink.clone()),
            ..Default::default()
        },
    );
    // Autorun instances are registered when the program is loaded (before their threads run).
    assert_eq!(
        kit.inst.activity().report().kernels.len(),
        kit.inst.autorun_status().len()
    );
    Bench { kit, sink }
}

impl Bench {
    /// Runs a task with a simulated clock starting at cycle 0 and evaluates it.
    fn timed(&self, name: &str, args: Vec<ArgBinding>) -> KernelTiming {
        self.run_timed_task(name, args, 0).1
    }
}

/// How the host disturbs a run.
#[derive(Clone, Copy, Debug)]
struct Disturb {
    threads: usize,
    /// Hold the printf sink (stalls the printing kernel on the host) this long, repeatedly.
    hold_ms: u64,
    /// Busy threads competing for the host's cores.
    hogs: usize,
}

const DISTURBANCES: [Disturb; 5] = [
    Disturb {
        threads: 1,
        hold_ms: 0,
        hogs: 0,
    },
    Disturb {
        threads: 4,
        hold_ms: 0,
        hogs: 0,
    },
    Disturb {
        threads: 1,
        hold_ms: 15,
        hogs: 0,
    },
    Disturb {
        threads: 4,
        hold_ms: 5,
        hogs: 2,
    },
    Disturb {
        threads: 1,
        hold_ms: 0,
        hogs: 3,
    },
];

type Job<'a> = Box<dyn FnOnce() -> KernelTiming + Send + 'a>;

/// Runs the kernels (all from cycle 0) on their own threads while the host is disturbed.
/// Non-blocking decisions are held back until every kernel is registered, as kernels
/// launched at the same simulated time would be.
fn disturbed(b: &Bench, d: Disturb, jobs: Vec<Job<'_>>) -> Vec<KernelTiming> {
    let done = AtomicBool::new(false);
    let hold = b.inst.activity().hold_sim();
    let before = b.inst.activity().report().kernels.len();
    let n = jobs.len();
    std::thread::scope(|s| {
        for _ in 0..d.hogs {
            s.spawn(|| {
                let mut x = 0u64;
                while !done.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            });
        }
        if d.hold_ms > 0 {
            let sink = b.sink.clone();
            let done = &done;
            s.spawn(move || {
                let t0 = Instant::now();
                while !done.load(Ordering::Relaxed) && t0.elapsed() < Duration::from_secs(20) {
                    {
                        let _g = sink.lock();
                        std::thread::sleep(Duration::from_millis(d.hold_ms));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
        }
        let hs: Vec<_> = jobs.into_iter().map(|j| s.spawn(j)).collect();
        let t0 = Instant::now();
        while b.inst.activity().report().kernels.len() < before + n
            && t0.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_micros(200));
        }
        drop(hold);
        let r = hs.into_iter().map(|h| h.join().unwrap()).collect();
        done.store(true, Ordering::Relaxed);
        r
    })
}

fn read_i32(m: &DeviceMemory, n: usize) -> Vec<i32> {
    let mut v = vec![0u8; n * 4];
    m.read(0, &mut v).unwrap();
    v.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Polls with non-blocking reads; the producer is slowed on the host.
fn poll(producer: &str, n: usize, d: Disturb) -> (Vec<i32>, KernelTiming, KernelTiming) {
    let b = bench(NB_PAIR, d.threads);
    let src = buf(&(0..n)
        .map(|i| 1.0 + (i % 3) as f32 * 1e-3)
        .collect::<Vec<f32>>());
    let out = buf(&[0i32; 2]);
    let mut t = disturbed(
        &b,
        d,
        vec![
            Box::new(|| b.timed(producer, vec![ArgBinding::buffer(&src), val(n as i32)])),
            Box::new(|| b.timed("poller", vec![ArgBinding::buffer(&out), val(n as i32)])),
        ],
    );
    let tc = t.pop().unwrap();
    let tp = t.pop().unwrap();
    (read_i32(&out, 2), tp, tc)
}

/// [`poll`] under each of the [`DISTURBANCES`], in order.
fn poll_disturbed(producer: &str, n: usize) -> Vec<(Vec<i32>, KernelTiming, KernelTiming)> {
    DISTURBANCES
        .iter()
        .map(|&d| {
            let t0 = Instant::now();
            let r = poll(producer, n, d);
            eprintln!(
                "{d:?}: fails {} sum {} producer {} cycles, poller {} cycles, {:?}",
                r.0[0],
                r.0[1],
                r.1.cycles,
                r.2.cycles,
                t0.elapsed()
            );
            r
        })
        .collect()
}

fn check_same<T: PartialEq + std::fmt::Debug>(what: &str, runs: &[T]) {
    for (i, r) in runs.iter().enumerate().skip(1) {
        assert_eq!(
            &runs[0], r,
            "{what}: run {i} ({:?}) differs from run 0",
            DISTURBANCES[i]
        );
    }
}

/// A producer slow in simulated time (II > 1) and held up on the host at its printf: the
/// poller's failed reads are the simulated gaps between elements, whatever the host does.
#[test]
fn nb_reads_of_a_producer_held_up_on_the_host_are_deterministic() {
    let n = 1500;
    let runs = poll_disturbed("producer", n);
    let (out, tp, tc) = &runs[0];
    // Every element arrives; the poller fails while the producer's II > 1 keeps it waiting.
    let b = bench(NB_PAIR, 1);
    let ii = b.report.kernel("producer").unwrap().loops[0].ii as i64;
    assert!(ii > 1, "producer II {ii}");
    assert!(
        out[0] as i64 >= (n as i64 - 1) * (ii - 1) / 2,
        "fails {} for II {ii}",
        out[0]
    );
    let read = fifo_site(&b.module, tc, b.index("poller"));
    assert_eq!(read.requests, n as u64, "successful reads");
    assert!(tp.cycles > 0 && tc.cycles > 0);
    check_same("poller with a held-up producer", &runs);
}

/// A producer cheap in simulated time (II 1, a fully unrolled chain) but slow on the host:
/// the poller rarely fails in simulated time although it is far ahead on the host.
#[test]
fn nb_reads_of_a_producer_slow_on_the_host_are_deterministic() {
    let n = 600;
    let runs = poll_disturbed("heavy_producer", n);
    let b = bench(NB_PAIR, 1);
    let rep = b.report.kernel("heavy_producer").unwrap();
    eprintln!("heavy_producer loops: {:?}", rep.loops);
    // The simulated gap between elements is the producer's II: the poller's failures stay
    // below a few per element, not the thousands of host-time polls per element.
    let ii = rep.loops[0].ii as i32;
    assert!(
        runs[0].0[0] <= (n as i32) * ii + 16,
        "fails {}",
        runs[0].0[0]
    );
    check_same("poller with a slow producer", &runs);
}

/// Non-blocking writes into a FIFO whose reader is slow in simulated time and held up on the
/// host (printf), or slow on the host only (heavy unrolled work).
#[test]
fn nb_writes_to_a_reader_held_up_on_the_host_are_deterministic() {
    let n = 1200;
    for reader in ["slow_reader", "heavy_reader"] {
        let runs: Vec<_> = DISTURBANCES
            .iter()
            .map(|&d| {
                let b = bench(NB_PAIR, d.threads);
                let src = buf(&vec![1.0f32; n]);
                let dst = buf(&[0.0f32; 1]);
                let out = buf(&[0i32; 1]);
                let t0 = Instant::now();
                let mut t = disturbed(
                    &b,
                    d,
                    vec![
                        Box::new(|| {
                            b.timed("nb_writer", vec![ArgBinding::buffer(&out), val(n as i32)])
                        }),
                        Box::new(|| {
                            b.timed(
                                reader,
                                vec![
                                    ArgBinding::buffer(&src),
                                    ArgBinding::buffer(&dst),
                                    val(n as i32),
                                ],
                            )
                        }),
                    ],
                );
                let tr = t.pop().unwrap();
                let tw = t.pop().unwrap();
                let fails = read_i32(&out, 1)[0];
                eprintln!(
                    "{reader} {d:?}: write fails {fails}, writer {} cycles, reader {} cycles, {:?}",
                    tw.cycles,
                    tr.cycles,
                    t0.elapsed()
                );
                (fails, read_i32(&dst, 1), tw, tr)
            })
            .collect();
        if reader == "slow_reader" {
            assert!(runs[0].0 > n as i32, "a slow reader makes writes fail");
        }
        check_same(reader, &runs);
    }
}

/// The guide's `unoptimized3` (non-blocking reads of three channels, counting `num_bytes`)
/// between a source writing the inputs with non-blocking writes and a sink polling the output:
/// identical counters across runs, worker counts and host disturbances.
#[test]
fn guide_unoptimized3_pair_is_deterministic() {
    let guide = include_str!("../../kernel-compiler/tests/corpus/ok/guide_nb_channels.cl");
    let src = format!(
        "{guide}\n\
         __kernel void source(__global int *drops, int n) {{\n\
           int lost = 0;\n\
           for (int i = 0; i < n; i++) {{\n\
             bool ok = write_channel_nb_intel(CH_DATA_IN[i % NUM_CH], (uchar)i);\n\
             if (!ok) lost++;\n\
           }}\n\
           drops[0] = lost;\n\
         }}\n\
         __kernel void sink(__global int *got, int polls) {{\n\
           int count = 0, sum = 0;\n\
           for (int i = 0; i < polls; i++) {{\n\
             bool valid = false;\n\
             uchar v = read_channel_nb_intel(CH_DATA_OUT, &valid);\n\
             if (valid) {{ count++; sum += v; }}\n\
           }}\n\
           got[0] = count;\n\
           got[1] = sum;\n\
         }}\n"
    );
    let runs: Vec<_> = DISTURBANCES
        .iter()
        .map(|&d| {
            let b = bench(&src, d.threads);
            let drops = buf(&[0i32; 1]);
            let got = buf(&[0i32; 2]);
            let t0 = Instant::now();
            let mut t = disturbed(
                &b,
                d,
                vec![
                    Box::new(|| b.timed("source", vec![ArgBinding::buffer(&drops), val(600i32)])),
                    Box::new(|| b.timed("unoptimized", vec![])),
                    Box::new(|| b.timed("sink", vec![ArgBinding::buffer(&got), val(8192i32)])),
                ],
            );
            let tk = t.pop().unwrap();
            let tm = t.pop().unwrap();
            let ts = t.pop().unwrap();
            let (lost, out) = (read_i32(&drops, 1)[0], read_i32(&got, 2));
            eprintln!(
                "{d:?}: source lost {lost}, sink got {out:?}, cycles {} {} {}, {:?}",
                ts.cycles,
                tm.cycles,
                tk.cycles,
                t0.elapsed()
            );
            (lost, out, ts, tm, tk)
        })
        .collect();
    let b = bench(&src, 1);
    assert_eq!(b.report.kernel("unoptimized").unwrap().loops[0].ii, 7);
    let (lost, out, ..) = &runs[0];
    assert!(*lost > 0 && *lost < 600, "some inputs are dropped: {lost}");
    assert!(out[0] > 0 && out[0] <= 128, "outputs {out:?}");
    check_same("unoptimized3 pair", &runs);
}

/// The same through a `clCreatePipe` pipe: `read_pipe` without the blocking attribute is
/// non-blocking (returns non-zero when no packet is ready), decided in simulated time.
#[test]
fn nb_read_pipe_of_a_producer_held_up_on_the_host_is_deterministic() {
    let src = "__kernel void pipe_producer(__global const float *src,\n\
                   write_only pipe int __attribute__((blocking)) p, int n) {\n\
          float q = 1.0f;\n\
          for (int i = 0; i < n; i++) {\n\
            q = q * src[i];\n\
            if ((i & 31) == 0) printf(\"q%d\\n\", i);\n\
            int v = i * 2 + (q > 1.0e30f ? 1 : 0);\n\
            write_pipe(p, &v);\n\
          }\n\
        }\n\
        __kernel void pipe_poller(read_only pipe int p, __global int *out, int n) {\n\
          int got = 0, empty = 0, sum = 0;\n\
          while (got < n) {\n\
            int v;\n\
            if (read_pipe(p, &v) == 0) { got++; sum += v; } else { empty++; }\n\
          }\n\
          out[0] = empty;\n\
          out[1] = sum;\n\
        }\n";
    let n = 1000;
    let runs: Vec<_> = DISTURBANCES
        .iter()
        .map(|&d| {
            let b = bench(src, d.threads);
            let pipe = Arc::new(PipeFifo::new("p", 4, 2));
            let input = buf(&vec![1.0f32; n]);
            let out = buf(&[0i32; 2]);
            let t = disturbed(
                &b,
                d,
                vec![
                    Box::new(|| {
                        b.timed(
                            "pipe_producer",
                            vec![
                                ArgBinding::buffer(&input),
                                ArgBinding::Pipe(pipe.clone()),
                                val(n as i32),
                            ],
                        )
                    }),
                    Box::new(|| {
                        b.timed(
                            "pipe_poller",
                            vec![
                                ArgBinding::Pipe(pipe.clone()),
                                ArgBinding::buffer(&out),
                                val(n as i32),
                            ],
                        )
                    }),
                ],
            );
            let r = read_i32(&out, 2);
            eprintln!(
                "{d:?}: empty {} sum {} cycles {} / {}",
                r[0], r[1], t[0].cycles, t[1].cycles
            );
            (r, t)
        })
        .collect();
    assert_eq!(runs[0].0[1], (0..n as i32).map(|i| i * 2).sum::<i32>());
    assert!(
        runs[0].0[0] > n as i32,
        "the II > 1 producer leaves empty polls"
    );
    check_same("read_pipe poller", &runs);
}

/// A timed autorun generator (rule A1: it runs with a clock from the program's load, one
/// value per execution) polled with non-blocking reads by an enqueued kernel: the autorun
/// instance stays a partner between its executions, so the counts do not depend on the host.
#[test]
fn nb_reads_of_an_autorun_generator_are_deterministic() {
    let src = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
        channel int g __attribute__((depth(2)));\n\
        __attribute__((autorun)) __attribute__((max_global_work_dim(0)))\n\
        __kernel void gen() {\n\
          float p = 1.0f;\n\
          int j = 0;\n\
          while (p < 1000.0f) { p = p * 1.7f + 0.3f; j++; }\n\
          write_channel_intel(g, j);\n\
        }\n\
        __kernel void poll_gen(__global int *out, int n) {\n\
          int got = 0, empty = 0, sum = 0;\n\
          while (got < n) {\n\
            bool valid = false;\n\
            int v = read_channel_nb_intel(g, &valid);\n\
            if (valid) { got++; sum += v; } else { empty++; }\n\
          }\n\
          out[0] = empty;\n\
          out[1] = sum;\n\
        }\n";
    let n: usize = 400;
    let runs: Vec<_> = DISTURBANCES
        .iter()
        .map(|&d| {
            let b = bench(src, d.threads);
            let out = buf(&[0i32; 2]);
            let t = disturbed(
                &b,
                d,
                vec![Box::new(|| {
                    b.timed("poll_gen", vec![ArgBinding::buffer(&out), val(n as i32)])
                })],
            );
            let r = read_i32(&out, 2);
            let st = &b.inst.autorun_status()[0];
            eprintln!(
                "{d:?}: empty {} sum {} cycles {} (generator: {} runs, window {:?})",
                r[0], r[1], t[0].cycles, st.runs, st.window
            );
            (r, t)
        })
        .collect();
    assert_eq!(runs[0].0[1], 13 * n as i32, "13 iterations per value");
    assert!(
        runs[0].0[0] >= 12 * (n as i32 - 2),
        "the generator's loop (13 iterations at II >= 1) leaves empty polls"
    );
    check_same("autorun generator poller", &runs);
}

/// Two kernels that only use non-blocking operations on each other (a token passed back and
/// forth through two depth-1 channels): every wait is decided by the other's tick, ties
/// included, and nothing deadlocks.
#[test]
fn nb_ping_pong_is_deterministic() {
    let src = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
        channel int ab __attribute__((depth(1)));\n\
        channel int ba __attribute__((depth(1)));\n\
        __kernel void ping(__global int *out, int n) {\n\
          int sent = 0, got = 0, fr = 0, fw = 0, tok = 1, sum = 0;\n\
          while (got < n) {\n\
            if (tok) {\n\
              if (write_channel_nb_intel(ab, sent)) { sent++; tok = 0; } else { fw++; }\n\
            }\n\
            bool v = false;\n\
            int x = read_channel_nb_intel(ba, &v);\n\
            if (v) { got++; tok = 1; sum += x; } else { fr++; }\n\
          }\n\
          out[0] = fr; out[1] = fw; out[2] = sum;\n\
        }\n\
        __kernel void pong(__global int *out, int n) {\n\
          int got = 0, fr = 0, fw = 0, pending = 0, val = 0;\n\
          while (got < n || pending) {\n\
            if (pending) {\n\
              if (write_channel_nb_intel(ba, val)) { pending = 0; } else { fw++; }\n\
            } else {\n\
              bool v = false;\n\
              int x = read_channel_nb_intel(ab, &v);\n\
              if (v) { got++; val = x * 2; pending = 1; } else { fr++; }\n\
            }\n\
          }\n\
          out[0] = fr; out[1] = fw;\n\
        }\n";
    let n: usize = 300;
    let runs: Vec<_> = DISTURBANCES
        .iter()
        .map(|&d| {
            let b = bench(src, d.threads);
            let (o1, o2) = (buf(&[0i32; 3]), buf(&[0i32; 2]));
            let t = disturbed(
                &b,
                d,
                vec![
                    Box::new(|| b.timed("ping", vec![ArgBinding::buffer(&o1), val(n as i32)])),
                    Box::new(|| b.timed("pong", vec![ArgBinding::buffer(&o2), val(n as i32)])),
                ],
            );
            let (r1, r2) = (read_i32(&o1, 3), read_i32(&o2, 2));
            eprintln!(
                "{d:?}: ping {r1:?} pong {r2:?} cycles {} / {}",
                t[0].cycles, t[1].cycles
            );
            (r1, r2, t)
        })
        .collect();
    assert_eq!(runs[0].0[2], (0..n as i32).map(|i| 2 * i).sum::<i32>());
    assert!(
        runs[0].0[0] > 0 && runs[0].1[0] > 0,
        "both sides poll in vain"
    );
    check_same("ping-pong", &runs);
}

/// Host cost of the common path (element present / room available): a blocking pair and a
/// non-blocking poller behind a blocking writer, `n` elements each, timed (ns per element).
/// Measurement only: `cargo nextest run -p fpgacl-device-model --test nb_determinism
/// --run-ignored only --no-capture`.
#[test]
#[ignore]
fn common_path_host_cost() {
    let src = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
        channel int c __attribute__((depth(64)));\n\
        __kernel void w(int n) { for (int i = 0; i < n; i++) write_channel_intel(c, i); }\n\
        __kernel void r(__global int *out, int n) {\n\
          int s = 0; for (int i = 0; i < n; i++) s += read_channel_intel(c); out[0] = s; }\n\
        __kernel void rnb(__global int *out, int n) {\n\
          int s = 0, got = 0;\n\
          while (got < n) { bool v = false; int x = read_channel_nb_intel(c, &v);\n\
            if (v) { s += x; got++; } }\n\
          out[0] = s; }\n";
    let n: usize = 400_000;
    let mut best = [f64::MAX; 2];
    for (k, reader) in ["r", "rnb"].iter().cycle().take(10).enumerate() {
        let b = bench(src, 1);
        let out = buf(&[0i32; 1]);
        let t0 = Instant::now();
        let t = disturbed(
            &b,
            DISTURBANCES[0],
            vec![
                Box::new(|| b.timed("w", vec![val(n as i32)])),
                Box::new(|| b.timed(reader, vec![ArgBinding::buffer(&out), val(n as i32)])),
            ],
        );
        let el = t0.elapsed();
        eprintln!(
            "{reader}: {n} elements in {el:?}: {:.0} ns/element, cycles {} / {}",
            el.as_nanos() as f64 / n as f64,
            t[0].cycles,
            t[1].cycles
        );
        best[k % 2] = best[k % 2].min(el.as_nanos() as f64 / n as f64);
    }
    eprintln!(
        "best of 5: blocking {:.0} ns/element, non-blocking {:.0} ns/element",
        best[0], best[1]
    );
}
