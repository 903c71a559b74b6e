//! Rule C4's interleaving (`timing/MODEL.md`): a loop of an NDRange kernel is not pipelined
//! across one work-item's iterations, but other work-items fill it (the guide: "these loops
//! can accept multiple work-items simultaneously"). When the loop's II comes from a recurrence
//! private to a work-item, a (work-item, iteration) pair enters every `max(1, II / N)` cycles,
//! N = the work-items in flight (all of the launch; at most two work-groups with barriers); a
//! small NDRange is latency-bound, and a memory dependency through `__global` memory keeps
//! the full II whatever the work-group size.

mod timing_util;

use fpgacl_device_model::timing::{self, EvalOptions};
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::analysis::IiReason;
use fpgacl_kernel_compiler::ir::AddrSpace;
use timing_util::*;

/// A dot-product style loop: `acc` (private) carries a float multiply-add recurrence (II > 1).
const DOT: &str = "kernel void dot(global const float *restrict a, global float *restrict out,\n\
                   int n) {\n\
  int gid = get_global_id(0);\n\
  float acc = 0.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    acc = acc * a[i] + 1.0f;\n\
  }\n\
  out[gid] = acc;\n\
}\n\
kernel void mem(global int *restrict out, global const int *restrict x, int n) {\n\
  int gid = get_global_id(0);\n\
  for (int i = 0; i < n; i++) {\n\
    out[x[gid * n + i]] += 1;\n\
  }\n\
}\n\
kernel void dot_sync(global const float *restrict a, global float *restrict out,\n\
                     int n) {\n\
  int gid = get_global_id(0);\n\
  float acc = 0.0f;\n\
  for (int i = 0; i < n; i++) {\n\
    acc = acc * a[i] + 1.0f;\n\
  }\n\
  barrier(CLK_GLOBAL_MEM_FENCE);\n\
  out[gid] = acc;\n\
}\n";

const ITEMS: u64 = 256;
const N: u64 = 64;

/// Issue cycles (C1-C4, one lane) of `items` work-items running `n` iterations each at
/// `per_iter` cycles per (work-item, iteration) pair, as the model rounds them (ticks).
fn issue(items: u64, n: u64, per_iter: f64) -> u64 {
    let t = timing::TICKS_PER_CYCLE;
    let per = (per_iter * t as f64).round() as u64;
    (items * t + items * n * per).div_ceil(t)
}

fn launch(k: &Kit, name: &str, group: u64) -> (LaunchSpec, Vec<std::sync::Arc<DeviceMemory>>) {
    launch_n(k, name, group, ITEMS)
}

fn launch_n(
    k: &Kit,
    name: &str,
    group: u64,
    items: u64,
) -> (LaunchSpec, Vec<std::sync::Arc<DeviceMemory>>) {
    let out = buf(&vec![0f32; ITEMS as usize]);
    let (a, args) = if name.starts_with("dot") {
        let a: Vec<f32> = (0..N).map(|i| 1.0 + (i % 3) as f32 * 0.25).collect();
        let a = buf(&a);
        let args = vec![
            ArgBinding::buffer(&a),
            ArgBinding::buffer(&out),
            val(N as i32),
        ];
        (a, args)
    } else {
        // Histogram indices: work-items share the bins.
        let x: Vec<i32> = (0..ITEMS * N).map(|i| ((i * 7) % ITEMS) as i32).collect();
        let x = buf(&x);
        let args = vec![
            ArgBinding::buffer(&out),
            ArgBinding::buffer(&x),
            val(N as i32),
        ];
        (x, args)
    };
    (
        LaunchSpec::ndrange_1d(k.index(name), items, Some(group), args),
        vec![a, out],
    )
}

#[test]
fn ndrange_private_recurrence_interleaves_work_items() {
    let k = kit(DOT, 2);
    let rep = k.kreport("dot");
    let l = rep.loop_at_line(5).expect("loop");
    assert!(l.ndrange);
    let ii = l.ii as u64;
    assert!(ii > 1, "a float recurrence has II > 1, got {ii}");
    assert!(
        l.reasons
            .iter()
            .any(|r| matches!(r, IiReason::DataDependency { variable, .. } if variable == "acc")),
        "{:?}",
        l.reasons
    );
    let fill = fpgacl_device_model::timing::compute::fill_once(rep);
    let mut seen = Vec::new();
    // A work-group size that divides ITEMS and covers the recurrence.
    let cover = ii.next_power_of_two();
    assert!(cover < 64);
    for group in [1u64, 2, cover, 64, 256] {
        let (spec, _keep) = launch(&k, "dot", group);
        let (r, t) = k.run(&spec);
        assert_eq!(r.local_size[0], group);
        // No barrier: all 256 work-items are in flight whatever the group size (N = 256 >= II):
        // one (work-item, iteration) pair per cycle.
        let want = issue(ITEMS, N, 1.0) + fill;
        eprintln!(
            "group {group}: compute {} want {want} (ii {ii}, fill {fill}; group-only rule {})",
            t.compute_cycles,
            issue(ITEMS, N, (ii as f64 / group as f64).max(1.0)) + fill
        );
        assert_eq!(t.compute_cycles, want, "group {group}");
        seen.push(t.compute_cycles);
    }
    // items x iterations + items + fill: 256 x 64 + 256 + 162 = 16,802 on the default board.
    assert_eq!(seen[0], ITEMS * N + ITEMS + fill);
    assert!(seen.iter().all(|&x| x == seen[0]));
}

/// Rule C4's latency-bound regime: a small NDRange has fewer work-items in flight than the
/// recurrence's latency, so each pass over the in-flight work-items waits for the recurrence:
/// `max(1, II / N)` cycles per (work-item, iteration) pair, N = the launch's work-items.
#[test]
fn small_ndrange_is_latency_bound() {
    let k = kit(DOT, 1);
    let rep = k.kreport("dot");
    let ii = rep.loop_at_line(5).expect("loop").ii as u64;
    let fill = fpgacl_device_model::timing::compute::fill_once(rep);
    assert_eq!(
        ii, 11,
        "the hand-computed figures below assume the float recurrence's II 11"
    );
    assert_eq!(fill, 162);
    // Hand-computed (II 11, 64 iterations, fill 162):
    // 1 item: 1 + 64 x 11 = 705 (+162 = 867); 2: 2 + 2 x 64 x 5.5 = 706 (868);
    // 4: 4 + 4 x 64 x 2.75 = 708 (870); 16 >= 11: 16 + 16 x 64 = 1040 (1202).
    for (items, want) in [(1u64, 867u64), (2, 868), (4, 870), (16, 1202)] {
        let (spec, _keep) = launch_n(&k, "dot", items, items);
        let t = k.run(&spec).1;
        eprintln!("{items} items: {} cycles", t.compute_cycles);
        assert_eq!(t.compute_cycles, want, "{items} items");
    }
}

/// Barriers limit the work-groups in flight to two (rule C4): with groups of 2, 4 work-items
/// share the recurrence (11 / 4 = 2.75 cycles per pair); with groups of 8, 16 >= 11.
#[test]
fn barriers_limit_the_groups_in_flight() {
    let k = kit(DOT, 2);
    let rep = k.kreport("dot_sync");
    let ii = rep.loop_at_line(20).expect("loop").ii;
    assert_eq!(ii, 11);
    for (group, want_issue) in [
        (2u64, 256 + 45_056u64),
        (8, 256 + 16_384),
        (256, 256 + 16_384),
    ] {
        let (spec, _keep) = launch(&k, "dot_sync", group);
        let (r, t) = k.run(&spec);
        let model = timing::compute_model_for_launch(&k.module, rep, r.local_size, r.work_items)
            .expect("model");
        assert_eq!(model.in_flight, (2 * group).min(ITEMS));
        let groups = r.num_groups.iter().product::<u64>();
        let fill = model.fill_cycles(&r.counters, r.work_items, groups);
        eprintln!("group {group}: compute {} fill {fill}", t.compute_cycles);
        assert_eq!(t.compute_cycles - fill, want_issue, "group {group}");
    }
}

/// The clock of a timed (single worker) execution built for the launch's work-group size
/// advances by the same issue ticks as the untimed evaluation.
#[test]
fn timed_and_untimed_agree_for_interleaved_loops() {
    let k = kit(DOT, 1);
    let rep = k.kreport("dot");
    for group in [1u64, 4, 64] {
        let (spec, _keep) = launch(&k, "dot", group);
        let untimed = k.run(&spec).1;
        let model =
            timing::compute_model_for_launch(&k.module, rep, [group, 1, 1], ITEMS).expect("model");
        assert_eq!(model.group_size, group);
        assert_eq!(model.in_flight, ITEMS);
        let r = k.inst.run_timed(&spec, &model.clock_plan(0)).expect("runs");
        assert!(r.end_tick.is_some());
        let timed = k.evaluate(
            &r,
            &EvalOptions {
                end_tick: r.end_tick,
                ..Default::default()
            },
        );
        assert_eq!(
            timed.compute_cycles, untimed.compute_cycles,
            "group {group}"
        );
        assert_eq!(timed.cycles, untimed.cycles, "group {group}");
    }
}

/// A recurrence through `__global` memory (shared by work-items) keeps the full II per
/// iteration whatever the work-group size (conservative).
#[test]
fn global_memory_recurrence_keeps_its_ii() {
    let k = kit(DOT, 2);
    let rep = k.kreport("mem");
    let l = rep.loop_at_line(12).expect("loop");
    eprintln!("mem loop: ii {} reasons {:?}", l.ii, l.reasons);
    assert!(l.ii > 1);
    assert!(l.reasons.iter().any(|r| matches!(
        r,
        IiReason::MemoryDependency {
            space: AddrSpace::Global,
            ..
        }
    )));
    let fill = fpgacl_device_model::timing::compute::fill_once(rep);
    let want = issue(ITEMS, N, l.ii as f64) + fill;
    for group in [1u64, 64] {
        let (spec, _keep) = launch(&k, "mem", group);
        let t = k.run(&spec).1;
        assert_eq!(t.compute_cycles, want, "group {group}");
    }
}
