//! Timing model tests: kernels compiled from OpenCL C, run, and evaluated against the guide's
//! profiler figures. Tolerances are stated per assertion.

mod timing_util;

use fpgacl_device_model::timing::Bound;
use fpgacl_device_model::*;
use timing_util::*;

const VECTOR_ADD: &str =
    "__kernel void vector_add(__global const int *x, __global const int *y, __global int *z) {\n\
    int i = get_global_id(0);\n\
    z[i] = x[i] + y[i];\n\
}\n";

/// The guide's "No Stalls, High Occupancy Percentage, and Low Bandwidth Efficiency" scenario:
/// (2 reads + 1 write) x 4 bytes x 294 MHz = 3528 MB/s, 14% of 25600 MB/s.
#[test]
fn vector_add_bandwidth_occupancy_no_stall() {
    let k = kit(VECTOR_ADD, 2);
    let n = 1 << 20;
    let x = buf(&vec![1i32; n]);
    let y = buf(&vec![2i32; n]);
    let z = buf(&vec![0i32; n]);
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("vector_add"),
        n as u64,
        None,
        vec![
            ArgBinding::buffer(&x),
            ArgBinding::buffer(&y),
            ArgBinding::buffer(&z),
        ],
    ));
    eprintln!("{t:#?}");
    assert_eq!(t.bound, Bound::Compute);
    // One work-item per cycle plus the pipeline fill: within 1% of n cycles.
    near("cycles", t.cycles as f64, n as f64, 0.01);
    let total: f64 = t
        .sites
        .iter()
        .map(|s| s.bandwidth_mbps(294.0).unwrap())
        .sum();
    near("total bandwidth MB/s", total, 3528.0, 0.01);
    let share = fpgacl_profile_format::metrics::bandwidth_share_pct(total, 25600.0).unwrap();
    assert_eq!(share.round(), 14.0);
    for s in &t.sites {
        assert_eq!(s.stall_pct(), Some(0.0));
        assert!(s.occupancy_pct().unwrap() > 99.0, "{s:?}");
        assert_eq!(s.activity_pct(), s.occupancy_pct());
        assert_eq!(s.efficiency_pct(), Some(100.0));
    }
}

/// The guide's `accum_swg` walk-through: with `size` 4 the outer loop's iterations enter the
/// inner loop every 4 cycles (dynamic II = the inner trip count), not every static II.
#[test]
fn dynamic_ii_of_an_outer_loop_follows_the_inner_trip_count() {
    let k = kit(
        "kernel void accum_swg (global int* a, global int* c, int size, int k_size) {\n\
           int sum[1024];\n\
           for (int k = 0; k < k_size; ++k) {\n\
             for (int i = 0; i < size; ++i) {\n\
               int j = k * size + i;\n\
               sum[k] += a[j];\n\
             }\n\
           }\n\
           for (int k = 0; k < k_size; ++k) {\n\
             c[k] = sum[k];\n\
           }\n\
         }\n",
        1,
    );
    let rep = k.kreport("accum_swg");
    for l in &rep.loops {
        eprintln!(
            "loop line {} ii {} serialized {:?} lat {}",
            l.loc.line, l.ii, l.serialized, l.iteration_latency
        );
    }
    let run = |size: i32, k_size: i32| {
        let a = buf(&vec![1i32; (size * k_size) as usize]);
        let c = buf(&vec![0i32; k_size as usize]);
        k.run(&LaunchSpec::task(
            k.index("accum_swg"),
            vec![
                ArgBinding::buffer(&a),
                ArgBinding::buffer(&c),
                val(size),
                val(k_size),
            ],
        ))
        .1
    };
    // Doubling the inner trip count doubles the time per outer iteration: the outer loop's
    // dynamic II is size x inner II (rule C2). 1000 outer iterations, sizes 4 and 8.
    let t4 = run(4, 1000);
    let t8 = run(8, 1000);
    let inner_ii = rep.loop_at_line(4).unwrap().ii as f64;
    let per_outer = (t8.cycles - t4.cycles) as f64 / 1000.0;
    near(
        "extra cycles per outer iteration",
        per_outer,
        4.0 * inner_ii,
        0.01,
    );
    assert!(t4.cycles as f64 >= 4000.0 * inner_ii);
    // The walk-through's figures (k_size 20, size 4): the outer loop costs nothing beyond the
    // inner loop's 80 iterations; the copy loop adds 20; plus the pipeline fill once (exact).
    let t = run(4, 20);
    let fill = fpgacl_device_model::timing::compute::fill_once(rep);
    assert_eq!(t.cycles - fill, 80 + 20, "{t:?}");
    // The fill (rule C5) is the code outside loops plus one drain of each top-level loop: the
    // last iteration's latency counts once (it was left out before: 0 for kernels with loops).
    let drains: f64 = rep
        .loops
        .iter()
        .filter(|l| l.parent.is_none())
        .map(|l| l.iteration_latency)
        .sum();
    assert!(drains > 0.0, "top-level loops have an iteration latency");
    assert_eq!(
        fill,
        rep.pipeline_latency.ceil() as u64 + drains.ceil() as u64
    );
}

/// The guide's nested `sum` with a dependency carried across the inner loop: outer iterations
/// execute serially across it, so each pays the inner loop's pipeline depth (rule C3); the
/// optimised version (`sum2`) does not.
#[test]
fn serialised_subloop_pays_its_latency_per_entry() {
    let src = "#define N 128\n\
        __kernel void unoptimized (__global int * restrict A, __global int * restrict B, __global int* restrict result) {\n\
          int sum = 0;\n\
          for (unsigned i = 0; i < N; i++) {\n\
            for (unsigned j = 0; j < N; j++) {\n\
              sum += A[i*N+j];\n\
            }\n\
            sum += B[i];\n\
          }\n\
          * result = sum;\n\
        }\n\
        __kernel void optimized (__global int * restrict A, __global int * restrict B, __global int* restrict result) {\n\
          int sum = 0;\n\
          for (unsigned i = 0; i < N; i++) {\n\
            int sum2 = 0;\n\
            for (unsigned j = 0; j < N; j++) {\n\
              sum2 += A[i*N+j];\n\
            }\n\
            sum += sum2;\n\
            sum += B[i];\n\
          }\n\
          * result = sum;\n\
        }\n";
    let k = kit(src, 1);
    let a = buf(&vec![1i32; 128 * 128]);
    let b = buf(&vec![1i32; 128]);
    let r = buf(&[0i32]);
    let args = || {
        vec![
            ArgBinding::buffer(&a),
            ArgBinding::buffer(&b),
            ArgBinding::buffer(&r),
        ]
    };
    let un = k.kreport("unoptimized");
    let outer = un.loop_at_line(4).unwrap();
    assert!(!outer.serialized.is_empty(), "{outer:?}");
    let inner_lat = un.loop_at_line(5).unwrap().iteration_latency.ceil();
    let (_, tu) = k.run(&LaunchSpec::task(k.index("unoptimized"), args()));
    let (_, to) = k.run(&LaunchSpec::task(k.index("optimized"), args()));
    eprintln!(
        "unoptimized {} cycles, optimized {} cycles, inner latency {inner_lat}",
        tu.cycles, to.cycles
    );
    // The difference is one inner pipeline depth per outer iteration (2%).
    near(
        "serialisation cost",
        (tu.cycles - to.cycles) as f64,
        128.0 * inner_lat,
        0.02,
    );
    near("optimized cycles", to.cycles as f64, 128.0 * 128.0, 0.05);
}

/// `num_simd_work_items(4)`: four work-items per cycle, four times the bandwidth.
#[test]
fn simd_vectorisation_multiplies_bandwidth() {
    let k = kit(
        "__attribute__((num_simd_work_items(4))) __attribute__((reqd_work_group_size(64,1,1)))\n\
         __kernel void vadd4(__global const int *x, __global const int *y, __global int *z) {\n\
           int i = get_global_id(0);\n\
           z[i] = x[i] + y[i];\n\
         }\n",
        2,
    );
    let n = 1 << 18;
    let (x, y, z) = (
        buf(&vec![1i32; n]),
        buf(&vec![2i32; n]),
        buf(&vec![0i32; n]),
    );
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("vadd4"),
        n as u64,
        Some(64),
        vec![
            ArgBinding::buffer(&x),
            ArgBinding::buffer(&y),
            ArgBinding::buffer(&z),
        ],
    ));
    near("cycles", t.cycles as f64, n as f64 / 4.0, 0.01);
    near("bandwidth", t.bandwidth_mbps(&k.board), 4.0 * 3528.0, 0.01);
    for s in &t.sites {
        assert!(s.occupancy_pct().unwrap() > 99.0, "{s:?}");
    }
}

/// Rule F on a FIFO directly: reads complete at least one cycle after the write, writes wait
/// for the read of element k - depth; a rendezvous completes both sides at the same tick.
#[test]
fn fifo_timestamps_follow_rule_f() {
    use fpgacl_device_model::fifo::{FifoOutcome, Waiter};
    use fpgacl_device_model::timing::TICKS_PER_CYCLE as T;
    let act = Activity::new();
    let g = act.register("t", false, [0; 3]);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let pos = || None;
    let w = Waiter {
        run: g.state(),
        activity: &act,
        shutdown: &stop,
        pos: &pos,
    };
    let f = Fifo::new("c", 4, 2);
    let mut b = [0u8; 4];
    // Two writes at ticks 10 and 20 fit the depth.
    assert_eq!(f.write_at(&[1; 4], true, &w, 10 * T).1, 10 * T);
    assert_eq!(f.write_at(&[2; 4], true, &w, 20 * T).1, 20 * T);
    // A non-blocking read before the element is visible in simulated time is not ready.
    assert_eq!(
        f.read_at(&mut b, false, &w, 10 * T),
        (FifoOutcome::NotReady, 10 * T)
    );
    // Reader at 5: waits until 11 (write + 1 cycle); then at 100 for the second element.
    assert_eq!(f.read_at(&mut b, true, &w, 5 * T).1, 11 * T);
    assert_eq!(f.read_at(&mut b, true, &w, 100 * T).1, 100 * T);
    // Third write at 30 reuses the slot of element 0, read at 11: no wait; the fourth reuses
    // element 1's slot, read at 100: waits until 100.
    assert_eq!(f.write_at(&[3; 4], true, &w, 30 * T).1, 30 * T);
    assert_eq!(
        f.write_at(&[4; 4], false, &w, 40 * T).0,
        FifoOutcome::NotReady
    );
    assert_eq!(f.write_at(&[4; 4], true, &w, 40 * T).1, 100 * T);

    // Rendezvous: the writer (arriving at 50) completes when the reader (at 70) takes it.
    let r = std::sync::Arc::new(Fifo::new("r", 4, 0));
    let r2 = r.clone();
    let writer = std::thread::spawn(move || {
        let act = Activity::new();
        let g = act.register("w", false, [0; 3]);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let pos = || None;
        let w = Waiter {
            run: g.state(),
            activity: &act,
            shutdown: &stop,
            pos: &pos,
        };
        r2.write_at(&[9; 4], true, &w, 50 * T).1
    });
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(r.read_at(&mut b, true, &w, 70 * T).1, 70 * T);
    assert_eq!(writer.join().unwrap(), 70 * T);
}

/// A report of another kernel is an error, not a panic.
#[test]
fn mismatched_report_is_an_error() {
    let k = kit(VECTOR_ADD, 1);
    let n = 64;
    let (x, y, z) = (
        buf(&vec![1i32; n]),
        buf(&vec![2i32; n]),
        buf(&vec![0i32; n]),
    );
    let r = k
        .inst
        .run(&LaunchSpec::ndrange_1d(
            0,
            n as u64,
            None,
            vec![
                ArgBinding::buffer(&x),
                ArgBinding::buffer(&y),
                ArgBinding::buffer(&z),
            ],
        ))
        .unwrap();
    let mut other = k.kreport("vector_add").clone();
    other.name = "other".into();
    let e =
        fpgacl_device_model::timing::evaluate(&k.module, &other, &k.board, &r, &Default::default());
    assert!(matches!(
        e,
        Err(fpgacl_device_model::timing::TimingError::ReportMismatch { .. })
    ));
}
