//! Rule B5 on real kernel runs (device model only): the same run evaluated with
//! burst-interleaved banks (rule B1) and with `-no-interleaving` placements
//! (`timing::evaluate_banked`); B2/B3 turn the slowest bank's time into the duration and the
//! global sites' stalls. End to end through the ICD loader: tests/tests/memory_banks.rs.

mod timing_util;

use fpgacl_device_model::timing::banks::BankPlacement;
use fpgacl_device_model::timing::{self, Bound, EvalOptions, KernelTiming};
use fpgacl_device_model::*;
use timing_util::*;

const SRC: &str = "__attribute__((num_simd_work_items(16)))\n\
__attribute__((reqd_work_group_size(256, 1, 1)))\n\
__kernel void copy(__global const float *restrict src, __global float *restrict dst) {\n\
  size_t i = get_global_id(0);\n\
  dst[i] = src[i];\n\
}\n\
__kernel void pick(__global const float *a, __global const float *b, __global float *dst, int sel) {\n\
  size_t i = get_global_id(0);\n\
  __global const float *p = sel ? a : b;\n\
  dst[i] = p[i];\n\
}\n";

fn floats(n: usize) -> std::sync::Arc<DeviceMemory> {
    buf(&(0..n).map(|i| i as f32).collect::<Vec<f32>>())
}

fn banked(k: &Kit, r: &RunReport, p: Option<&BankPlacement>) -> KernelTiming {
    timing::evaluate_banked(
        &k.module,
        k.kreport(&r.kernel),
        &k.board,
        r,
        &EvalOptions::default(),
        p,
    )
    .expect("evaluates")
}

#[test]
fn one_bank_for_both_buffers_doubles_a_memory_bound_copy_and_its_stalls() {
    let k = kit(SRC, 2);
    let n = 1usize << 18;
    let (src, dst) = (floats(n), floats(n));
    let spec = LaunchSpec::ndrange_1d(
        k.index("copy"),
        n as u64,
        Some(256),
        vec![ArgBinding::buffer(&src), ArgBinding::buffer(&dst)],
    );
    let (r, inter) = k.run(&spec);
    assert_eq!(
        inter,
        banked(&k, &r, None),
        "None is the interleaved figure"
    );
    let place = |a: u32, b: u32| BankPlacement::new(&k.board, "default", vec![a, b]).unwrap();
    let split = banked(&k, &r, Some(&place(1, 2)));
    let same = banked(&k, &r, Some(&place(2, 2)));
    assert_eq!(inter.bound, Bound::Memory);
    // Separate banks: each moves 4 bytes per element at 43.5 B/cycle, as interleaved (1 cycle
    // of rounding).
    assert!(split.memory_cycles.abs_diff(inter.memory_cycles) <= 1);
    assert!(split.cycles.abs_diff(inter.cycles) <= 1);
    // One bank: 8 bytes per element at 43.5 B/cycle, twice the memory cycles.
    near(
        "same-bank memory cycles",
        same.memory_cycles as f64,
        n as f64 * 8.0 / (12800.0 / 294.0),
        0.001,
    );
    near(
        "same / separate",
        same.cycles as f64 / split.cycles as f64,
        2.0,
        0.01,
    );
    // B3 follows: the load (the stall source) shows stall% + occupancy% ~ 100 and stalls more
    // than with separate banks.
    let (ls, lp) = (k.site_at(&same, 5, false), k.site_at(&split, 5, false));
    eprintln!(
        "cycles interleaved {} separate {} same {}; load stall% separate {:?} same {:?}",
        inter.cycles,
        split.cycles,
        same.cycles,
        lp.stall_pct(),
        ls.stall_pct()
    );
    let sum = ls.stall_pct().unwrap() + ls.occupancy_pct().unwrap();
    near("same-bank load stall% + occupancy%", sum, 100.0, 0.02);
    assert!(
        ls.stall_pct().unwrap() > lp.stall_pct().unwrap() + 20.0,
        "same bank {:?} vs separate {:?}",
        ls.stall_pct(),
        lp.stall_pct()
    );
    // Bytes fetched do not depend on the placement.
    assert_eq!(same.bytes_fetched, inter.bytes_fetched);
}

#[test]
fn a_pointer_chosen_at_run_time_spreads_over_the_banks() {
    let k = kit(SRC, 2);
    let n = 1usize << 16;
    let (a, b, dst) = (floats(n), floats(n), floats(n));
    let spec = LaunchSpec::ndrange_1d(
        k.index("pick"),
        n as u64,
        Some(256),
        vec![
            ArgBinding::buffer(&a),
            ArgBinding::buffer(&b),
            ArgBinding::buffer(&dst),
            val(1i32),
        ],
    );
    let (r, _) = k.run(&spec);
    let load = k
        .module
        .sites
        .iter()
        .find(|s| s.loc.line == 10 && s.kind == fpgacl_kernel_compiler::ir::SiteKind::Load)
        .expect("load of p");
    assert_eq!(load.arg, None, "the load's buffer is not known statically");
    // dst in bank 1, a and b in bank 2: the load's bytes spread over both banks, so bank 1
    // holds the store + half the load, bank 2 half the load.
    let p = BankPlacement::new(&k.board, "DDR4", vec![2, 2, 1, 0]).unwrap();
    let t = banked(&k, &r, Some(&p));
    let bank_bpc = 12800.0 / 294.0;
    let per_elem_bank1 = 4.0 + 2.0; // store + half the load
    assert!(
        (t.memory_cycles as f64 - n as f64 * per_elem_bank1 / bank_bpc).abs() <= 2.0,
        "{} memory cycles",
        t.memory_cycles
    );
}
