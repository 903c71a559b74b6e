//! Rules D1-D7 (the DRAM model, `timing/MODEL.md`) and M6 (unaligned wide accesses) through
//! real kernel runs. Expected figures are computed by hand from the JEDEC timing of the
//! board's DDR4-2133 banks (BittWare 385A: 2 banks, 64-byte words, tCK = 2000 / 2133 ns).

mod timing_util;

use fpgacl_device_model::*;
use timing_util::*;

const STREAMS: &str = "\
__attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))\n\
kernel void read1(global const float16 *restrict a, global float *restrict out) {\n\
  int i = get_global_id(0);\n\
  float16 v = a[i];\n\
  if (v.s0 == -1.0f) out[0] = v.s1;\n\
}\n\
__attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))\n\
kernel void copy(global const float16 *restrict a, global float16 *restrict c) {\n\
  int i = get_global_id(0);\n\
  c[i] = a[i];\n\
}\n\
__attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))\n\
kernel void add4(global const float16 *restrict a, global const float16 *restrict b,\n\
                 global const float16 *restrict c, global const float16 *restrict d,\n\
                 global float16 *restrict e) {\n\
  int i = get_global_id(0);\n\
  e[i] = a[i] + b[i] + c[i] + d[i];\n\
}\n";

/// Work-items (float16 each: 64 bytes per array per work-item, 4 MiB per array).
const N: u64 = 1 << 16;

fn board(mhz: f64) -> Board {
    BoardSet::select(Some("p385a_sch_ax115"))
        .unwrap()
        .with_kernel_clock(mhz)
}

fn run_streams(k: &Kit, name: &str, arrays: usize) -> timing::KernelTiming {
    // read1 also takes its (never written) output buffer.
    let nbufs = arrays.max(2);
    let bufs: Vec<_> = (0..nbufs)
        .map(|_| buf(&vec![1f32; (N * 16) as usize]))
        .collect();
    let args = bufs.iter().map(ArgBinding::buffer).collect();
    let spec = LaunchSpec::ndrange_1d(k.index(name), N, Some(256), args);
    k.run(&spec).1
}

/// The hand computation of rules D1-D5 for one bank of the 385A: `streams` streams (of which
/// `writes` write), each moving `chunks` chunks of 1 KiB (16 words) on the bank. ns.
fn hand_bank_ns(streams: f64, writes: f64, chunks: f64) -> f64 {
    let tck = 2000.0 / 2133.0;
    let t_word = 64.0 * 1000.0 / (8.0 * 2133.0); // 3.750586 ns: one BL8 burst
    let data = streams * chunks * 16.0 * t_word; // D1
    let mixed = if writes > 0.0 && writes < streams {
        chunks
    } else {
        0.0
    };
    let turnaround = mixed * (2.0 * tck + 7.5 + 15.0 * tck); // D2
    let conflicts = if streams >= 2.0 {
        streams * chunks / 4.0 * (14.06 + 14.06) // D3: 4 bank sets
    } else {
        0.0
    };
    (data + turnaround + conflicts) / (1.0 - 260.0 / 7800.0) // D5
}

/// Bandwidth over the run in MB/s of the peak (34,128 MB/s).
fn efficiency(t: &timing::KernelTiming, mhz: f64) -> f64 {
    t.bytes_fetched as f64 / (t.memory_cycles as f64 / mhz) / 34128.0
}

#[test]
fn streams_sharing_interleaved_banks_lose_efficiency_by_mechanism() {
    let mhz = 341.06;
    let k = kit_on(STREAMS, 2, board(mhz));
    // 4 MiB per array over 2 interleaved banks: 2 MiB = 2048 chunks of 1 KiB per bank.
    let chunks = 2048.0;
    for (name, arrays, streams, writes, eff) in [
        // one read stream: refresh only, 1 - 260/7800
        ("read1", 1, 1.0, 0.0, 0.96667),
        // read + write: 32 words (120.02 ns) per round + 23.44 ns turnaround + 2/4 x 28.12
        ("copy", 2, 2.0, 1.0, 0.73651),
        // 4 reads + 1 write: 80 words (300.05 ns) + 23.44 + 5/4 x 28.12 per round
        ("add4", 5, 5.0, 1.0, 0.80873),
    ] {
        let t = run_streams(&k, name, arrays);
        assert_eq!(t.bound, timing::Bound::Memory, "{name}");
        assert_eq!(t.bytes_fetched, arrays as u64 * N * 64, "{name}");
        let want = (hand_bank_ns(streams, writes, chunks) * mhz / 1000.0).ceil() as u64;
        assert!(
            t.memory_cycles.abs_diff(want) <= 1,
            "{name}: {} cycles, hand {want}",
            t.memory_cycles
        );
        let e = efficiency(&t, mhz);
        near(name, e, eff, 0.001);
        eprintln!("{name}: {:.1}% of peak", e * 100.0);
    }
}

#[test]
fn bandwidth_stops_rising_with_fmax_at_the_controller() {
    // One read stream: the kernel-side port moves one 64-byte word per bank per kernel
    // cycle (D6): 2 x 64 x f MB/s, until the DRAM's 2 x 17,064 x 0.96667 = 32,990 MB/s.
    let mut last = 0.0;
    for (mhz, want) in [
        (150.0, 19200.0),
        (200.0, 25600.0),
        (250.0, 32000.0),
        (300.0, 32990.4),
        (400.0, 32990.4),
    ] {
        let k = kit_on(STREAMS, 2, board(mhz));
        let t = run_streams(&k, "read1", 1);
        let mbps = t.bytes_fetched as f64 / (t.memory_cycles as f64 / mhz);
        near(&format!("{mhz} MHz"), mbps, want, 0.001);
        assert!(mbps >= last - 1.0);
        last = mbps;
    }
}

const SHIFTED: &str = "\
kernel void shifted16(global const float *restrict a, global float *restrict out, int k, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    float16 v = vload16(i, a + k);\n\
    out[i] = v.s0 + v.sf;\n\
  }\n\
}\n\
kernel void shifted4(global const float *restrict a, global float *restrict out, int k, int n) {\n\
  for (int i = 0; i < n; i++) {\n\
    float4 v = vload4(i, a + k);\n\
    out[i] = v.s0 + v.s3;\n\
  }\n\
}\n";

#[test]
fn unaligned_wide_accesses_cost_one_cycle_per_crossing() {
    // Default board (64-byte words, rule B1: 87 B/cycle): 64 + 4 bytes per iteration at II 1
    // stay compute bound, so the extra LSU cycles show in full.
    let k = kit(SHIFTED, 1);
    let n: u64 = 4096;
    let run = |name: &str, shift: i32| {
        let a = buf(&vec![1f32; (n * 16 + 16) as usize]);
        let out = buf(&vec![0f32; n as usize]);
        let spec = LaunchSpec::task(
            k.index(name),
            vec![
                ArgBinding::buffer(&a),
                ArgBinding::buffer(&out),
                val(shift),
                val(n as i32),
            ],
        );
        k.run(&spec)
    };
    let (r0, t0) = run("shifted16", 0);
    let (r1, t1) = run("shifted16", 1);
    let load = |r: &RunReport| {
        r.counters
            .sites
            .iter()
            .find(|s| s.bytes == n * 64)
            .copied()
            .expect("the float16 load")
    };
    // Aligned: no crossing. Shifted by one float: every 64-byte load spans two words.
    assert_eq!(load(&r0).crossing, 0);
    assert_eq!(load(&r1).crossing, n);
    assert_eq!(t0.crossing_cycles, 0);
    assert_eq!(t1.crossing_cycles, n);
    assert_eq!(t0.bound, timing::Bound::Compute);
    assert_eq!(
        t1.cycles,
        t0.cycles + n,
        "one extra cycle per crossing access"
    );
    // float4 shifted by one float: offsets 4, 20, 36, 52 in a word: only the one at 52
    // crosses (52 + 16 > 64): n / 4 extra cycles.
    let (q0, u0) = run("shifted4", 0);
    let (q1, u1) = run("shifted4", 1);
    let load4 = |r: &RunReport| {
        r.counters
            .sites
            .iter()
            .find(|s| s.bytes == n * 16)
            .copied()
            .expect("the float4 load")
    };
    assert_eq!(load4(&q0).crossing, 0);
    assert_eq!(load4(&q1).crossing, n / 4);
    assert_eq!(u1.cycles, u0.cycles + n / 4);
    // Unaligned but not crossing (offset 4 within the word) is still reported unaligned (S6).
    assert_eq!(load4(&q1).unaligned, n);
}

#[test]
fn concurrent_runs_share_the_peak_with_their_own_dram_efficiency() {
    // Rule B4 with D1-D7: a run's demand is the bytes the peak moves in its DRAM time
    // (`demand_bytes`), so alone the ledger gives back exactly its D1-D7 duration, and two
    // equal memory-bound copies take twice as long together.
    use fpgacl_device_model::timing::sharing::{self, Demand};
    let mhz = 341.06;
    let k = kit_on(STREAMS, 2, board(mhz));
    let bufs: Vec<_> = (0..2)
        .map(|_| buf(&vec![1f32; (N * 16) as usize]))
        .collect();
    let spec = LaunchSpec::ndrange_1d(
        k.index("copy"),
        N,
        Some(256),
        bufs.iter().map(ArgBinding::buffer).collect(),
    );
    let (r, t) = k.run(&spec);
    assert_eq!(t.bound, timing::Bound::Memory);
    let cap = k.board.global_bytes_per_cycle();
    // 73.65% of the peak: the peak moves more bytes in the run's time than it fetched.
    near(
        "demand / fetched",
        t.demand_bytes as f64 / t.bytes_fetched as f64,
        1.0 / 0.73651,
        0.002,
    );
    let d = Demand {
        start: 0,
        pipeline: t.pipeline_cycles,
        bytes: t.demand_bytes,
    };
    assert!(sharing::alone_cycles(&d, cap).abs_diff(t.cycles) <= 1);
    let shared = sharing::share(cap, &[], &[d, d]);
    let s = k.evaluate(
        &r,
        &timing::EvalOptions {
            shared_cycles: Some(shared[0].cycles),
            ..Default::default()
        },
    );
    near(
        "shared / alone",
        s.cycles as f64 / t.cycles as f64,
        2.0,
        0.001,
    );
}
