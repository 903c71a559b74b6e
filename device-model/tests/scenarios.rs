//! The guide's profiler scenarios and the paper's feed-forward split, from OpenCL C source:
//! compiled, run, timed, and checked with numbers (tolerances stated per assertion).

mod timing_util;

use fpgacl_device_model::timing::{sharing, Bound, EvalOptions, KernelTiming, TICKS_PER_CYCLE};
use fpgacl_device_model::*;
use std::sync::Arc;
use timing_util::*;

fn ints(n: usize, f: impl Fn(usize) -> i32) -> Arc<DeviceMemory> {
    buf(&(0..n).map(f).collect::<Vec<i32>>())
}

/// "If an LSU is accessed less frequently than other LSUs, such as the case when an LSU is
/// outside a loop that contains other LSUs, this LSU will have a lower occupancy value."
#[test]
fn load_outside_loop_has_lower_occupancy() {
    let k = kit(
        "__kernel void outside(__global const int *a, __global const int *b, __global int *out, int n) {\n\
           int base = a[0];\n\
           int s = 0;\n\
           for (int i = 0; i < n; i++) {\n\
             s += b[i];\n\
           }\n\
           out[0] = s + base;\n\
         }\n",
        1,
    );
    let n = 10_000;
    let (a, b, out) = (ints(1, |_| 7), ints(n, |i| i as i32), ints(1, |_| 0));
    let (_, t) = k.run(&LaunchSpec::task(
        k.index("outside"),
        vec![
            ArgBinding::buffer(&a),
            ArgBinding::buffer(&b),
            ArgBinding::buffer(&out),
            val(n as i32),
        ],
    ));
    let outside = k.site_at(&t, 2, false);
    let inside = k.site_at(&t, 5, false);
    eprintln!(
        "outside {outside:?}\ninside {inside:?}\ncycles {}",
        t.cycles
    );
    // II 1 loop of n iterations: the inside load occupies > 95% of the time, the outside one
    // once (< 0.1%).
    assert!(inside.occupancy_pct().unwrap() > 95.0);
    assert!(outside.occupancy_pct().unwrap() < 0.1);
    assert_eq!(inside.stall_pct(), Some(0.0));
    near("cycles", t.cycles as f64, n as f64, 0.05);
}

/// "if (some_rare_condition) x = src[addr];": occupancy high, activity low.
#[test]
fn predicated_load_high_occupancy_low_activity() {
    let k = kit(
        "__kernel void pred(__global const int *src, __global const int *flag, __global int *dst) {\n\
           int i = get_global_id(0);\n\
           int x = 0;\n\
           if (flag[i] != 0) x = src[i];\n\
           dst[i] = x;\n\
         }\n",
        2,
    );
    let n = 1 << 16;
    let (src, flag, dst) = (
        ints(n, |i| i as i32),
        ints(n, |i| (i % 20 == 0) as i32),
        ints(n, |_| 0),
    );
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("pred"),
        n as u64,
        None,
        vec![
            ArgBinding::buffer(&src),
            ArgBinding::buffer(&flag),
            ArgBinding::buffer(&dst),
        ],
    ));
    let s = k.module.sites.iter().find(|s| s.target == "src").unwrap();
    let src_c = t.site(s.id.0).unwrap();
    eprintln!("src {src_c:?}");
    // 5% of the work-items enable the load (tolerance 0.5 points); all of them occupy it.
    assert!(src_c.occupancy_pct().unwrap() > 99.0);
    near("activity%", src_c.activity_pct().unwrap(), 5.0, 0.1);
    assert_eq!(src_c.requests, n.div_ceil(20) as u64);
    // Accesses 80 bytes apart: one 64-byte word each (rule M2's effective stride), 6.25%.
    assert_eq!(src_c.efficiency_pct(), Some(6.25));
}

fn strided(stride_elems: usize) -> (KernelTiming, Kit) {
    let src = format!(
        "#define S {stride_elems}\n\
         __kernel void gather(__global const int *src, __global int *dst) {{\n\
           int i = get_global_id(0);\n\
           dst[i] = src[i * S];\n\
         }}\n"
    );
    let k = kit(&src, 2);
    let n = 1 << 14;
    let (s, d) = (ints(n * stride_elems, |i| i as i32), ints(n, |_| 0));
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("gather"),
        n as u64,
        None,
        vec![ArgBinding::buffer(&s), ArgBinding::buffer(&d)],
    ));
    (t, k)
}

const COPIES: &str =
    "__kernel void plain(__global const int *restrict a, __global int *restrict b) {\n\
       int i = get_global_id(0);\n\
       b[i] = a[i];\n\
     }\n\
     __kernel void stride(__global const int *restrict a, __global int *restrict b, int n) {\n\
       for (int i = get_global_id(0); i < n; i += get_global_size(0))\n\
         b[i] = a[i];\n\
     }\n\
     __kernel void gather(__global const int *restrict a, __global int *restrict b, int n) {\n\
       for (int i = get_global_id(0); i < n; i += get_global_size(0))\n\
         b[i] = a[i * 16];\n\
     }\n\
     __kernel void stride_sync(__global const int *restrict a, __global int *restrict b, int n) {\n\
       for (int i = get_global_id(0); i < n; i += get_global_size(0))\n\
         b[i] = a[i];\n\
       barrier(CLK_GLOBAL_MEM_FENCE);\n\
     }\n\
     __kernel void rows(__global const int *restrict a, __global int *restrict b) {\n\
       int r = get_global_id(0);\n\
       for (int j = 0; j < 16; j++)\n\
         b[r * 16 + j] = a[r * 16 + j];\n\
     }\n\
     __kernel void rows_loop(__global const int *restrict a, __global int *restrict b) {\n\
       int r = get_global_id(0);\n\
       #pragma unroll 1\n\
       for (int j = 0; j < 16; j++)\n\
         b[r * 16 + j] = a[r * 16 + j];\n\
     }\n";

/// Rule M0 in the pipeline's issue order: a grid-stride loop (`for (i = gid; i < n; i +=
/// gsize)`) reaches the LSU as iteration k of work-items 0, 1, 2, ... back to back, so it
/// coalesces like the plain copy; a stride of 16 ints across work-items still wastes 15/16
/// of every word.
#[test]
fn grid_stride_loop_coalesces_like_the_plain_copy() {
    let k = kit(COPIES, 2);
    let n = 1usize << 16;
    let (a, b) = (ints(16 * n, |i| i as i32), ints(n, |_| 0));
    let args = |extra: bool| {
        let mut v = vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b)];
        if extra {
            v.push(val(n as i32));
        }
        v
    };
    let (_, plain) = k.run(&LaunchSpec::ndrange_1d(
        k.index("plain"),
        n as u64,
        Some(256),
        args(false),
    ));
    let (_, gs) = k.run(&LaunchSpec::ndrange_1d(
        k.index("stride"),
        4096,
        Some(256),
        args(true),
    ));
    // The same loop in a kernel with a barrier (work-items interleaved at barriers, one
    // execution count per work-item): the same figures.
    let (_, gs_sync) = k.run(&LaunchSpec::ndrange_1d(
        k.index("stride_sync"),
        4096,
        Some(256),
        args(true),
    ));
    let (_, gather) = k.run(&LaunchSpec::ndrange_1d(
        k.index("gather"),
        4096,
        Some(256),
        args(true),
    ));
    let b2 = ints(n, |_| 0);
    let (_, rows) = k.run(&LaunchSpec::ndrange_1d(
        k.index("rows"),
        n as u64 / 16,
        Some(256),
        vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b2)],
    ));
    let b3 = ints(n, |_| 0);
    let (_, rows_loop) = k.run(&LaunchSpec::ndrange_1d(
        k.index("rows_loop"),
        n as u64 / 16,
        Some(256),
        vec![ArgBinding::buffer(&a), ArgBinding::buffer(&b3)],
    ));
    let got: Vec<i32> = {
        let mut v = vec![0u8; n * 4];
        b.read(0, &mut v).unwrap();
        v.chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    assert!(got.iter().enumerate().all(|(i, &x)| x == 16 * i as i32));
    let figures = |t: &KernelTiming, line: u32| {
        let (l, s) = (k.site_at(t, line, false), k.site_at(t, line, true));
        (
            l.efficiency_pct().unwrap(),
            l.average_burst_bytes().unwrap(),
            s.efficiency_pct().unwrap(),
            s.average_burst_bytes().unwrap(),
            t.cycles,
        )
    };
    let (p, g, x, r) = (
        figures(&plain, 3),
        figures(&gs, 7),
        figures(&gather, 11),
        figures(&rows, 21),
    );
    eprintln!(
        "(load eff %, load avg burst B, store eff %, store avg burst B, cycles)\n\
         plain {p:?}\ngrid-stride {g:?}\ngather {x:?}\nrows {r:?}"
    );
    // Plain copy: every 16 work-items fill one 64-byte word, a group of 256 one 16-word burst.
    assert_eq!((p.0, p.1, p.2, p.3), (100.0, 1024.0, 100.0, 1024.0));
    // Grid-stride: iteration k of the group's 256 work-items covers 16 whole words, one burst
    // (execution order: 1-word bursts, 6.25%).
    assert_eq!((g.0, g.1, g.2, g.3), (100.0, 1024.0, 100.0, 1024.0));
    let gy = figures(&gs_sync, 15);
    assert_eq!((gy.0, gy.1, gy.2, gy.3), (g.0, g.1, g.2, g.3));
    assert_eq!(gs_sync.bytes_fetched, gs.bytes_fetched);
    // Both move 2 x 256 KB; the grid-stride loop's extra cost is its loop (II 1 per iteration
    // after the 4096 work-items' issue), within 10% of the plain copy.
    near("grid-stride cycles", g.4 as f64, p.4 as f64, 0.10);
    // A 64-byte stride across work-items: one new word per 4-byte load.
    assert_eq!(x.0, 6.25);
    assert_eq!(x.2, 100.0);
    let nb = n as u64 * 4;
    assert_eq!((plain.bytes_fetched, gs.bytes_fetched), (2 * nb, 2 * nb));
    assert_eq!(gather.bytes_fetched, 16 * nb + nb);
    // A work-item copying its own 16-int row: the loop (constant trip count 16) is unrolled
    // and its 16 copies form one 64-byte access per work-item (rule M0'): consecutive
    // work-items are consecutive words, as in the plain copy (6,022 cycles, memory bound at
    // the board's bandwidth; 96,338 before rule M0').
    assert_eq!((r.0, r.1, r.2, r.3), (100.0, 1024.0, 100.0, 1024.0));
    assert_eq!(rows.bytes_fetched, 2 * nb);
    // Kept as a loop (`#pragma unroll 1`): iteration j of consecutive work-items is 64 bytes
    // apart at the LSU, so every word is fetched once per j (6.25%) in 16-word bursts.
    let rl = figures(&rows_loop, 27);
    eprintln!("rows_loop {rl:?}");
    assert_eq!((rl.0, rl.1, rl.2, rl.3), (6.25, 1024.0, 6.25, 1024.0));
}

/// "Low Bandwidth Efficiency": efficiency falls and bursts shrink as the stride grows.
#[test]
fn strided_access_lowers_efficiency_and_burst_size() {
    let mut rows = Vec::new();
    for stride in [1usize, 4, 16, 64] {
        let (t, k) = strided(stride);
        let s = k.site_at(&t, 4, false);
        rows.push((
            stride,
            s.efficiency_pct().unwrap(),
            s.average_burst_bytes().unwrap(),
            s.max_burst_bytes,
        ));
    }
    eprintln!("(stride elems, efficiency %, avg burst B, max burst B): {rows:?}");
    // Exact by rules M2/M3 with 64-byte words and 16-word bursts.
    assert_eq!(rows[0].1, 100.0);
    assert_eq!(rows[1].1, 25.0);
    assert_eq!(rows[2].1, 6.25);
    assert_eq!(rows[3].1, 6.25);
    for w in rows.windows(2) {
        assert!(w[1].1 <= w[0].1, "efficiency must not rise with the stride");
        assert!(w[1].2 <= w[0].2, "bursts must not grow with the stride");
    }
    assert_eq!(rows[3].3, 64, "a 256-byte stride gives one-word bursts");
    assert!(rows[0].2 >= 1024.0);
}

/// Two wide strided loads need more bandwidth than the board has: the kernel is memory bound,
/// the loads are the stall source (stall% + occupancy% ~ 100%), the store is a victim.
#[test]
fn memory_bound_kernel_stalls_at_its_global_loads() {
    let k = kit(
        "__kernel void two(__global const int *a, __global const int *b, __global int *dst) {\n\
           int i = get_global_id(0);\n\
           dst[i] = a[i * 32] + b[i * 32];\n\
         }\n",
        2,
    );
    let n = 1 << 14;
    let (a, b, d) = (
        ints(n * 32, |i| i as i32),
        ints(n * 32, |i| i as i32),
        ints(n, |_| 0),
    );
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("two"),
        n as u64,
        None,
        vec![
            ArgBinding::buffer(&a),
            ArgBinding::buffer(&b),
            ArgBinding::buffer(&d),
        ],
    ));
    assert_eq!(t.bound, Bound::Memory);
    // 2 x 64 + 4 bytes per work-item at 25600/294 = 87.07 bytes/cycle (1%).
    near(
        "cycles",
        t.cycles as f64,
        n as f64 * 132.0 / (25600.0 / 294.0),
        0.01,
    );
    let la = k.module.sites.iter().find(|s| s.target == "a").unwrap();
    let sa = t.site(la.id.0).unwrap();
    let store = k.site_at(&t, 3, true);
    eprintln!("load a {sa:?}\nstore {store:?}");
    let sum = sa.stall_pct().unwrap() + sa.occupancy_pct().unwrap();
    near("load stall% + occupancy%", sum, 100.0, 0.02);
    assert!(
        sa.stall_pct().unwrap() > 20.0,
        "high stall: the guide's 20% mark"
    );
    assert!(store.stall_pct().unwrap() < 5.0);
    // The board's bandwidth is used in full (2%).
    near(
        "bandwidth",
        t.bandwidth_mbps(&k.board),
        k.board.global_bandwidth_mbps(),
        0.02,
    );
}

const CHANNEL_PAIR: &str = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
channel float c __attribute__((depth(16)));\n\
__kernel void fast_producer(__global const float *src, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    write_channel_intel(c, src[i]);\n\
  }\n\
}\n\
__kernel void slow_consumer(__global float *dst, int n) {\n\
  float p = 1.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    p = p * read_channel_intel(c);\n\
  }\n\
  dst[0] = p;\n\
}\n\
__kernel void slow_producer(__global const float *src, int n) {\n\
  float p = 1.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    p = p * src[i];\n\
    write_channel_intel(c, p);\n\
  }\n\
}\n\
__kernel void fast_consumer(__global float *dst, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    dst[i] = read_channel_intel(c);\n\
  }\n\
}\n";

/// Runs a producer and a consumer concurrently with simulated clocks starting at the given
/// cycles; returns their timings.
fn run_pair(
    k: &Kit,
    producer: &str,
    consumer: &str,
    n: usize,
    starts: (u64, u64),
) -> (KernelTiming, KernelTiming) {
    let src = buf(&vec![1.0f32; n]);
    let dst = buf(&vec![0.0f32; n]);
    let time =
        |name: &str, args: Vec<ArgBinding>, start: u64| k.run_timed_task(name, args, start).1;
    std::thread::scope(|s| {
        let p = s.spawn(|| {
            time(
                producer,
                vec![ArgBinding::buffer(&src), val(n as i32)],
                starts.0,
            )
        });
        let c = s.spawn(|| {
            time(
                consumer,
                vec![ArgBinding::buffer(&dst), val(n as i32)],
                starts.1,
            )
        });
        (p.join().unwrap(), c.join().unwrap())
    })
}

/// "if the read operations occur much slower than the write operations, the Profiler
/// identifies a stall for the write_channel_intel call in the write kernel"; swapping the
/// speeds moves the stall to the read.
#[test]
fn channel_stall_is_on_the_faster_side() {
    let k = kit(CHANNEL_PAIR, 1);
    let n = 4000;
    let slow_ii = k.kreport("slow_consumer").loops[0].ii as f64;
    assert!(slow_ii > 1.0, "the float product recurrence sets II > 1");

    let (p, c) = run_pair(&k, "fast_producer", "slow_consumer", n, (0, 0));
    let (w, r) = (
        k.fifo_site(&p, "fast_producer"),
        k.fifo_site(&c, "slow_consumer"),
    );
    eprintln!("fast write {w:?}\nslow read {r:?}\nII {slow_ii}");
    // The writer waits (II - 1) cycles per element once the FIFO is full: stall% ~ (II-1)/II.
    near(
        "write stall%",
        w.stall_pct().unwrap(),
        100.0 * (slow_ii - 1.0) / slow_ii,
        0.05,
    );
    assert!(r.stall_pct().unwrap() < 1.0);
    // Both kernels take the slow side's time (5%).
    near("producer cycles", p.cycles as f64, n as f64 * slow_ii, 0.05);
    near("consumer cycles", c.cycles as f64, n as f64 * slow_ii, 0.05);
    assert_eq!(p.bound, Bound::Channel);

    // A fresh program: its channel has no history in simulated time.
    let k = kit(CHANNEL_PAIR, 1);
    let (p, c) = run_pair(&k, "slow_producer", "fast_consumer", n, (0, 0));
    let (w, r) = (
        k.fifo_site(&p, "slow_producer"),
        k.fifo_site(&c, "fast_consumer"),
    );
    eprintln!("slow write {w:?}\nfast read {r:?}");
    assert!(w.stall_pct().unwrap() < 1.0);
    near(
        "read stall%",
        r.stall_pct().unwrap(),
        100.0 * (slow_ii - 1.0) / slow_ii,
        0.05,
    );
    // A stall source: stall% + occupancy% ~ 100% (2 points).
    near(
        "read stall% + occupancy%",
        r.stall_pct().unwrap() + r.occupancy_pct().unwrap(),
        100.0,
        0.02,
    );
}

/// "if the kernel that reads is not launched concurrently with the kernel that writes": a
/// consumer started a million cycles before its producer waits that long at its read.
#[test]
fn consumer_launched_early_shows_read_stall() {
    let k = kit(CHANNEL_PAIR, 1);
    let n = 1000;
    let early = 1_000_000u64;
    let (p, c) = run_pair(&k, "fast_producer", "fast_consumer", n, (early, 0));
    let r = k.fifo_site(&c, "fast_consumer");
    eprintln!("read {r:?} consumer {c:?}");
    assert!(r.stall_cycles >= early, "{}", r.stall_cycles);
    assert!(r.stall_pct().unwrap() > 99.0);
    assert!(c.end_cycle >= p.start_cycle + n as u64);
    assert!(k.fifo_site(&p, "fast_producer").stall_pct().unwrap() < 1.0);
}

/// Same inputs, same counters and cycles: twice, and with 1 versus 4 worker threads.
#[test]
fn determinism_across_runs_and_threads() {
    let src =
        "__kernel void vadd(__global const int *x, __global const int *y, __global int *z) {\n\
                 int i = get_global_id(0);\n\
                 if (x[i] & 1) z[i] = x[i] + y[i * 3];\n\
               }\n";
    let n = 1 << 15;
    let run = |threads: usize| {
        let k = kit(src, threads);
        let (x, y, z) = (
            ints(n, |i| i as i32),
            ints(3 * n, |i| i as i32),
            ints(n, |_| 0),
        );
        let (r, t) = k.run(&LaunchSpec::ndrange_1d(
            k.index("vadd"),
            n as u64,
            Some(64),
            vec![
                ArgBinding::buffer(&x),
                ArgBinding::buffer(&y),
                ArgBinding::buffer(&z),
            ],
        ));
        (r.threads, t)
    };
    let (t1, a) = run(1);
    let (t4, b) = run(4);
    let (_, c) = run(4);
    assert_eq!((t1, t4), (1, 4));
    assert_eq!(a, b);
    assert_eq!(b, c);

    let first = run_pair(
        &kit(CHANNEL_PAIR, 1),
        "fast_producer",
        "slow_consumer",
        3000,
        (0, 0),
    );
    let second = run_pair(
        &kit(CHANNEL_PAIR, 1),
        "fast_producer",
        "slow_consumer",
        3000,
        (0, 0),
    );
    assert_eq!(first, second);
    assert_eq!(TICKS_PER_CYCLE, 1 << 16);
}

const FEED_FORWARD: &str = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
channel float c0 __attribute__((depth(64)));\n\
__kernel void baseline(__global float *data, __global const int *idx, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    float a = data[idx[i]];\n\
    data[n + i] = a * a + 1.0f;\n\
  }\n\
}\n\
__kernel void memory(__global const float *data, __global const int *idx, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    write_channel_intel(c0, data[idx[i]]);\n\
  }\n\
}\n\
__kernel void compute(__global float *out, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    float a = read_channel_intel(c0);\n\
    out[i] = a * a + 1.0f;\n\
  }\n\
}\n";

/// The paper's feed-forward design model (its Listing 1 and Table 2): a single work-item
/// kernel whose main loop loads through a data-dependent index from a buffer it also stores
/// to has a large II (memory dependency); split into a memory kernel and a compute kernel
/// connected by a channel, both loops get II 1, so the pair is predicted faster and uses more
/// bandwidth.
#[test]
fn feed_forward_split_is_faster_with_higher_bandwidth() {
    let k = kit(FEED_FORWARD, 1);
    let n = 4096usize;
    let base_rep = k.kreport("baseline");
    let base_ii = base_rep.loops[0].ii;
    eprintln!("baseline loop: {:?}", base_rep.loops[0]);
    assert!(
        base_rep.loops[0].reasons.iter().any(|r| matches!(
            r,
            fpgacl_kernel_compiler::analysis::IiReason::MemoryDependency { .. }
        )),
        "the report explains the baseline II by the memory dependency"
    );
    assert!(base_ii > 100, "II {base_ii}");
    assert_eq!(k.kreport("memory").loops[0].ii, 1);
    assert_eq!(k.kreport("compute").loops[0].ii, 1);

    let idx = ints(n, |i| ((i * 7) % n) as i32);
    let data = buf(&vec![2.0f32; 2 * n]);
    let (_, base) = k.run(&LaunchSpec::task(
        k.index("baseline"),
        vec![
            ArgBinding::buffer(&data),
            ArgBinding::buffer(&idx),
            val(n as i32),
        ],
    ));

    let data2 = buf(&vec![2.0f32; 2 * n]);
    let out = ArgBinding::Buffer {
        mem: Some(data2.clone()),
        offset: n * 4,
        len: n * 4,
    };
    // Rule B4 as the runtime applies it: each run timed alone, the two demands shared over
    // the board's bandwidth, each run evaluated again with its shared duration.
    let time = |name: &str, args: Vec<ArgBinding>| k.run_timed_task(name, args, 0);
    let ((rm, mem_alone), (rc, comp_alone)) = std::thread::scope(|s| {
        let m = s.spawn(|| {
            time(
                "memory",
                vec![
                    ArgBinding::buffer(&data2),
                    ArgBinding::buffer(&idx),
                    val(n as i32),
                ],
            )
        });
        let c = s.spawn(|| time("compute", vec![out.clone(), val(n as i32)]));
        (m.join().unwrap(), c.join().unwrap())
    });
    let got: Vec<f32> = {
        let mut v = vec![0u8; 2 * n * 4];
        data2.read(0, &mut v).unwrap();
        v.chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    assert!(
        got[n..].iter().all(|&x| x == 5.0),
        "the split computes the same result"
    );

    let demand = |t: &KernelTiming| sharing::Demand {
        start: t.start_cycle,
        pipeline: t.pipeline_cycles,
        bytes: t.bytes_fetched,
    };
    let cap = k.board.global_bytes_per_cycle();
    let want = |t: &KernelTiming| t.bytes_fetched as f64 / t.pipeline_cycles as f64;
    eprintln!(
        "memory kernel wants {:.1} B/cycle, compute kernel {:.1}, board {cap:.1}",
        want(&mem_alone),
        want(&comp_alone)
    );
    assert!(want(&mem_alone) + want(&comp_alone) < cap);
    let shared = sharing::share(cap, &[], &[demand(&mem_alone), demand(&comp_alone)]);
    let shared_eval = |r: &RunReport, cycles: u64| {
        k.evaluate(
            r,
            &EvalOptions {
                end_tick: r.end_tick,
                shared_cycles: Some(cycles),
                ..Default::default()
            },
        )
    };
    let (mem, comp) = (
        shared_eval(&rm, shared[0].cycles),
        shared_eval(&rc, shared[1].cycles),
    );
    // Together they want less than the board gives (32 + 4 of 87 B/cycle): B4 leaves both as
    // they were alone.
    assert_eq!((&mem, &comp), (&mem_alone, &comp_alone));
    let ff_cycles = mem.end_cycle.max(comp.end_cycle);
    let ff_bw = (mem.bytes_fetched + comp.bytes_fetched) as f64 / ff_cycles as f64
        * k.board.kernel_clock_mhz;
    let base_bw = base.bandwidth_mbps(&k.board);
    let speedup = base.cycles as f64 / ff_cycles as f64;
    eprintln!(
        "baseline: II {base_ii}, {} cycles, {base_bw:.0} MB/s; feed-forward: {ff_cycles} cycles, \
         {ff_bw:.0} MB/s, speedup {speedup:.1}",
        base.cycles
    );
    // The baseline issues an iteration every II cycles (2%).
    near(
        "baseline cycles",
        base.cycles as f64,
        (n as u64 * base_ii as u64) as f64,
        0.02,
    );
    assert!(speedup > 50.0, "speedup {speedup}");
    assert!(ff_bw > 50.0 * base_bw, "{ff_bw} vs {base_bw}");
}
