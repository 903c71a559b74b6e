//! Rule C2's floor (`timing/MODEL.md`): an outer loop iteration that enters none of its
//! pipelined subloops costs its full II; the C2 reduction only applies to iterations that feed
//! a subloop. Without the floor such iterations cost 0 cycles, and a non-blocking polling loop
//! of that shape retried a failed read at the same simulated tick forever.

mod timing_util;

use fpgacl_device_model::timing::{self, EvalOptions, KernelTiming};
use fpgacl_device_model::*;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;
use timing_util::*;

const SKIP: &str = "kernel void skip(global int *restrict out, int n, int m) {\n\
  int s = 0;\n\
  for (int i = 0; i < n; i++) {\n\
    if (i & 1) {\n\
      for (int j = 0; j < m; j++) { s ^= j * i; }\n\
    }\n\
  }\n\
  out[0] = s;\n\
}\n";

/// Every other outer iteration enters the subloop (unknown trip count `m`): those cost the
/// subloop's `m x II(sub)` (C2: the outer II is absorbed), the others the outer II. Timed and
/// untimed evaluations agree.
#[test]
fn outer_iterations_that_skip_their_subloop_pay_their_ii() {
    let k = kit(SKIP, 1);
    let rep = k.kreport("skip");
    let outer = rep.loop_at_line(3).expect("outer loop");
    let inner = rep.loop_at_line(5).expect("inner loop");
    assert_eq!(inner.parent, Some(outer.id));
    assert!(inner.trip_count.is_none());
    let (ii_o, ii_s) = (outer.ii as u64, inner.ii as u64);
    assert!(ii_o >= 1 && ii_s >= 1, "ii {ii_o} / {ii_s}");
    let fill = fpgacl_device_model::timing::compute::fill_once(rep);
    let model = timing::compute_model(&k.module, rep).expect("model");
    let n = 1000u64;
    for m in [0u64, 4, 9] {
        let out = buf(&[0i32]);
        let spec = LaunchSpec::task(
            k.index("skip"),
            vec![ArgBinding::buffer(&out), val(n as i32), val(m as i32)],
        );
        let untimed = k.run(&spec).1;
        let r = k.inst.run_timed(&spec, &model.clock_plan(0)).expect("runs");
        let timed = k.evaluate(
            &r,
            &EvalOptions {
                end_tick: r.end_tick,
                ..Default::default()
            },
        );
        // n/2 iterations skip the subloop (full outer II), n/2 enter it (m x inner II).
        let want = n / 2 * ii_o + n / 2 * m * ii_s + fill;
        eprintln!(
            "m {m}: untimed {} timed {} want {want} (ii {ii_o}/{ii_s}, fill {fill})",
            untimed.cycles, timed.cycles
        );
        assert_eq!(untimed.cycles, want, "m {m}");
        assert_eq!(timed.cycles, want, "m {m}");
    }
}

const PING_PONG: &str = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
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
// The request's shape: the outer polling loop enters its inner loop only after a successful\n\
// read; the iterations that do not are the ones that must advance the clock.\n\
__kernel void pong(__global int *out, int n) {\n\
  int got = 0, fr = 0, fw = 0;\n\
  while (got < n) {\n\
    bool v = false;\n\
    int x = read_channel_nb_intel(ab, &v);\n\
    if (v) { got++; while (!write_channel_nb_intel(ba, x * 2)) fw++; }\n\
    else { fr++; }\n\
  }\n\
  out[0] = fr; out[1] = fw;\n\
}\n";

type Outcome = (Vec<i32>, Vec<i32>, u64, u64);

/// Runs ping and pong timed from cycle 0 on their own threads; `None` when they do not finish
/// within `limit` (the livelock this rule fixes).
fn ping_pong(threads: usize, n: usize, limit: Duration) -> Option<Outcome> {
    let k = Arc::new(kit(PING_PONG, threads));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let timed = |name: &str, out: &Arc<DeviceMemory>| -> KernelTiming {
            let rep = k.kreport(name);
            let model = timing::compute_model(&k.module, rep).expect("model");
            let r = k
                .inst
                .run_timed(
                    &LaunchSpec::task(k.index(name), vec![ArgBinding::buffer(out), val(n as i32)]),
                    &model.clock_plan(0),
                )
                .expect("runs");
            k.evaluate(
                &r,
                &EvalOptions {
                    end_tick: r.end_tick,
                    ..Default::default()
                },
            )
        };
        let (o1, o2) = (buf(&[0i32; 3]), buf(&[0i32; 2]));
        // Both registered before either decides (same simulated start).
        let hold = k.inst.activity().hold_sim();
        let (t1, t2) = std::thread::scope(|s| {
            let h1 = s.spawn(|| timed("ping", &o1));
            let h2 = s.spawn(|| timed("pong", &o2));
            let t0 = std::time::Instant::now();
            while k.inst.activity().report().kernels.len() < 2
                && t0.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_micros(200));
            }
            drop(hold);
            (h1.join().unwrap(), h2.join().unwrap())
        });
        let rd = |m: &DeviceMemory, c: usize| -> Vec<i32> {
            let mut b = vec![0u8; c * 4];
            m.read(0, &mut b).unwrap();
            b.chunks(4)
                .map(|x| i32::from_ne_bytes(x.try_into().unwrap()))
                .collect()
        };
        let _ = tx.send((rd(&o1, 3), rd(&o2, 2), t1.cycles, t2.cycles));
    });
    rx.recv_timeout(limit).ok()
}

/// The request's reproducer: pong polls `ab` in an outer loop whose inner loop (retrying the
/// reply) is entered only after a successful read. It terminates, both sides poll in vain
/// (their clocks advance while they wait), and counts and cycles are identical across worker
/// counts.
#[test]
fn nb_ping_pong_with_an_inner_retry_loop_terminates_deterministically() {
    let n = 200;
    let runs: Vec<Outcome> = [1usize, 4, 1]
        .iter()
        .map(|&t| {
            let r = ping_pong(t, n, Duration::from_secs(60))
                .unwrap_or_else(|| panic!("threads {t}: ping-pong did not finish (livelock)"));
            eprintln!(
                "threads {t}: ping {:?} pong {:?} cycles {} / {}",
                r.0, r.1, r.2, r.3
            );
            r
        })
        .collect();
    assert_eq!(runs[0].0[2], (0..n as i32).map(|i| 2 * i).sum::<i32>());
    assert!(
        runs[0].0[0] > 0 && runs[0].1[0] > 0,
        "both sides poll in vain"
    );
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
}
