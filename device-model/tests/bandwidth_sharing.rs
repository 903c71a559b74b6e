//! Rule B4 on real kernel runs (device model only): runs are timed alone, their demands
//! (pipeline cycles, bytes fetched) go through `timing::sharing::share`, and the shared
//! duration goes back into `timing::evaluate` (`EvalOptions::shared_cycles`), where B2/B3
//! turn it into the duration and the per-site stalls. The runtime's run ledger does the same
//! for overlapping commands (tests/tests/bandwidth_sharing.rs, end to end).

mod timing_util;

use fpgacl_device_model::timing::sharing::{self, Demand};
use fpgacl_device_model::timing::{Bound, EvalOptions, KernelTiming};
use fpgacl_device_model::*;
use timing_util::*;

const COPY: &str = "__attribute__((num_simd_work_items(16)))\n\
__attribute__((reqd_work_group_size(256, 1, 1)))\n\
__kernel void copy(__global const float *restrict src, __global float *restrict dst) {\n\
  size_t i = get_global_id(0);\n\
  dst[i] = src[i];\n\
}\n";

fn demand(t: &KernelTiming) -> Demand {
    Demand {
        start: t.start_cycle,
        pipeline: t.pipeline_cycles,
        bytes: t.bytes_fetched,
    }
}

fn floats(n: usize) -> std::sync::Arc<DeviceMemory> {
    buf(&(0..n).map(|i| i as f32).collect::<Vec<f32>>())
}

/// Two memory-bound copies started together: each takes twice its time alone, the two use
/// the board's bandwidth, and B3 shows the extra time as stall at the copy's LSUs, which stay
/// the stall source (stall% + occupancy% ~ 100%).
#[test]
fn two_copies_share_the_board_and_stall_at_their_lsus() {
    let k = kit(COPY, 2);
    let n = 1usize << 16;
    let spec = |src, dst| LaunchSpec {
        kernel: k.index("copy"),
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [n as u64, 1, 1],
        local_size: Some([256, 1, 1]),
        args: vec![ArgBinding::buffer(&src), ArgBinding::buffer(&dst)],
    };
    let (src, d1, d2) = (floats(n), floats(n), floats(n));
    let (ra, a) = k.run(&spec(src.clone(), d1));
    let (rb, b) = k.run(&spec(src, d2));
    assert_eq!(a, b);
    assert_eq!(a.bound, Bound::Memory);
    let cap = k.board.global_bytes_per_cycle();
    // alone: the board's bytes per cycle (B1/B2), as the sharing model gives it alone
    assert_eq!(a.cycles, sharing::alone_cycles(&demand(&a), cap));
    let shared = sharing::share(cap, &[], &[demand(&a), demand(&b)]);
    assert_eq!(shared[0], shared[1]);
    let opts = |c| EvalOptions {
        shared_cycles: Some(c),
        ..Default::default()
    };
    let sa = k.evaluate(&ra, &opts(shared[0].cycles));
    let sb = k.evaluate(&rb, &opts(shared[1].cycles));
    eprintln!(
        "alone {} cycles, shared {} / {}; bandwidth {:.0} / {:.0} MB/s",
        a.cycles,
        sa.cycles,
        sb.cycles,
        a.bandwidth_mbps(&k.board),
        sa.bandwidth_mbps(&k.board)
    );
    let ratio = sa.cycles as f64 / a.cycles as f64;
    assert!((ratio - 2.0).abs() < 0.001, "{ratio}");
    let together = sa.bandwidth_mbps(&k.board) + sb.bandwidth_mbps(&k.board);
    assert!(
        together <= k.board.global_bandwidth_mbps() * 1.0001,
        "{together}"
    );
    assert!(
        together >= k.board.global_bandwidth_mbps() * 0.999,
        "{together}"
    );
    // B3 on the shared duration: more stall, the LSUs still the source
    let stall = |t: &KernelTiming| t.sites.iter().map(|s| s.stall_cycles).max().unwrap();
    assert!(stall(&sa) > stall(&a) + a.cycles / 2);
    // (the pipeline fill, 160 of 12043 cycles, is neither stall nor occupancy)
    for s in &sa.sites {
        let sum = s.stall_pct().unwrap() + s.occupancy_pct().unwrap();
        assert!((sum - 100.0).abs() < 2.0, "{sum}");
    }
    assert_eq!(sa.memory_cycles, sa.cycles);
    assert_eq!(sa.pipeline_cycles, a.pipeline_cycles);
}
