//! The library of real boards (`device-model/boards/*.json`): each one runs the guide's
//! `vector_add` demo kernel with its own clock and bandwidth, and a board's FPGA family selects
//! the floating-point latency table of the analysis (`LATENCIES.md`, "Families").

mod timing_util;

use fpgacl_device_model::*;
use timing_util::*;

const VECTOR_ADD: &str = "__kernel void vector_add(__global const float *x,\n\
                          __global const float *y, __global float *restrict z) {\n\
  int index = get_global_id(0);\n\
  z[index] = x[index] + y[index];\n\
}\n\
__kernel void sum(__global const float *restrict a, __global float *restrict out, int n) {\n\
  float s = 0.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    s += a[i];\n\
  }\n\
  *out = s;\n\
}\n";

#[test]
fn every_builtin_board_runs_vector_add() {
    let n = 1u64 << 14;
    let set = BoardSet::default();
    assert_eq!(set.boards.len(), 8);
    for board in set.boards {
        let k = kit_on(VECTOR_ADD, 2, board.clone());
        let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let y: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
        let (xb, yb, zb) = (buf(&x), buf(&y), buf(&vec![0f32; n as usize]));
        let spec = LaunchSpec::ndrange_1d(
            k.index("vector_add"),
            n,
            Some(256),
            vec![
                ArgBinding::buffer(&xb),
                ArgBinding::buffer(&yb),
                ArgBinding::buffer(&zb),
            ],
        );
        let (_r, t) = k.run(&spec);
        let mut out = vec![0u8; n as usize * 4];
        zb.read(0, &mut out).unwrap();
        for (i, c) in out.chunks(4).enumerate() {
            assert_eq!(
                f32::from_le_bytes(c.try_into().unwrap()),
                3.0 * i as f32,
                "{}",
                board.name
            );
        }
        // 12 bytes per work-item at one work-item per cycle fits every board's bandwidth:
        // compute bound, n + fill cycles, and the duration follows the board's clock.
        assert_eq!(t.bound, timing::Bound::Compute, "{}", board.name);
        let fill = timing::compute::fill_once(k.kreport("vector_add"));
        assert_eq!(t.cycles, n + fill, "{}", board.name);
        let ns = (t.cycles as f64 * 1000.0 / board.kernel_clock_mhz).round() as u64;
        assert_eq!(t.duration_ns(&board), ns, "{}", board.name);
        eprintln!(
            "{:<16} {:<11} {:>6} MHz {:>7} cycles {:>8} ns {:>7.0} MB/s",
            board.name,
            board.family.name(),
            board.kernel_clock_mhz,
            t.cycles,
            t.duration_ns(&board),
            t.bandwidth_mbps(&board)
        );
    }
}

/// A float-add recurrence (`s += a[i]` in a single work-item loop) has the family's adder
/// latency as its II: Arria 10 5 (the default board, the reference table), Stratix V 8 (soft
/// logic), Stratix 10 6 (HyperFlex).
#[test]
fn float_add_recurrence_follows_the_family() {
    for (sel, ii) in [
        ("fpgacl_a10", 5u32),
        ("de5net_a7", 8),
        ("p385a_sch_ax115", 5),
        ("p520_max_sg280h", 6),
        ("pac_s10_dc", 6),
    ] {
        let board = BoardSet::select(Some(sel)).unwrap();
        let k = kit_on(VECTOR_ADD, 1, board);
        let l = k.kreport("sum").loop_at_line(8).expect("loop");
        assert_eq!(l.ii, ii, "{sel}");
    }
}
