//! Rule C4's interleaving (`timing/MODEL.md`): a loop of an NDRange kernel is not pipelined
//! across one work-item's iterations, but other work-items fill it (the guide: "these loops
//! can accept multiple work-items simultaneously"). When the loop's II comes from a recurrence
//! private to a work-item, a (work-item, iteration) pair enters every `max(1, II / W)` cycles,
//! W = the work-group size; a work-group of 1 pays the full II per iteration, and a memory
//! dependency through `__global` memory keeps the full II whatever the work-group size.

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
    let out = buf(&vec![0f32; ITEMS as usize]);
    let (a, args) = if name == "dot" {
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
        LaunchSpec::ndrange_1d(k.index(name), ITEMS, Some(group), args),
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
        let per = (ii as f64 / group as f64).max(1.0);
        let want = issue(ITEMS, N, per) + fill;
        eprintln!(
            "group {group}: compute {} want {want} (ii {ii}, fill {fill}; old rule {})",
            t.compute_cycles,
            issue(ITEMS, N, ii as f64) + fill
        );
        assert_eq!(t.compute_cycles, want, "group {group}");
        seen.push(t.compute_cycles);
    }
    // Work-group of 1: every iteration pays the recurrence (today's figure).
    assert_eq!(seen[0], issue(ITEMS, N, ii as f64) + fill);
    // W >= II: one (work-item, iteration) per cycle, items x iterations (+ items + fill).
    assert_eq!(seen[2], ITEMS * N + ITEMS + fill);
    assert_eq!(seen[3], seen[2]);
    assert_eq!(seen[4], seen[2]);
    // In between: the work-items share the recurrence's latency.
    assert!(seen[1] < seen[0] && seen[1] > seen[2]);
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
        let model = timing::compute_model_for_group(&k.module, rep, [group, 1, 1]).expect("model");
        assert_eq!(model.group_size, group);
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
