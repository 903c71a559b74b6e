//! Host cost of the channel ring alone (no interpreter): a producer thread and a consumer
//! thread move `n` 4-byte values through one [`Fifo`] of each depth, timed like kernels of a
//! channel pair (each keeps a simulated clock advancing 1 cycle per value), and the program
//! prints values/s (host wall), CPU ns per value (both threads), and the end ticks (which
//! must not depend on the run: they are printed so that runs can be compared).
//!
//! `cargo run --release -p fpgacl-device-model --example fifo_bench -- [n] [depth...]`
//! (defaults: 2^22 values, depths 1 16 64 1024).

use fpgacl_device_model::fifo::{flush_owed_wakes, Fifo, FifoOutcome, Waiter};
use fpgacl_device_model::timing::TICKS_PER_CYCLE;
use fpgacl_device_model::Activity;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

fn thread_cpu() -> std::time::Duration {
    let mut ts = libc_timespec { s: 0, ns: 0 };
    // SAFETY: CLOCK_THREAD_CPUTIME_ID (3) with a valid out pointer.
    unsafe { clock_gettime(3, &mut ts) };
    std::time::Duration::new(ts.s as u64, ts.ns as u32)
}

#[repr(C)]
struct libc_timespec {
    s: i64,
    ns: i64,
}
extern "C" {
    fn clock_gettime(clk: i32, ts: *mut libc_timespec) -> i32;
}

/// One side: `n` operations from tick 0, one cycle of work per value. Returns (end tick,
/// stall ticks, checksum, thread CPU).
fn side(
    act: &Arc<Activity>,
    f: &Fifo,
    n: u64,
    write: bool,
) -> (u64, u64, u64, std::time::Duration) {
    let g = act.register_timed(if write { "w" } else { "r" }, false, [0; 3], Some(0));
    let stop = AtomicBool::new(false);
    let pos = || None;
    let w = Waiter {
        run: g.state(),
        activity: act,
        shutdown: &stop,
        pos: &pos,
    };
    let c0 = thread_cpu();
    let (mut now, mut stall, mut sum) = (0u64, 0u64, 0u64);
    let mut b = [0u8; 4];
    for i in 0..n {
        let (o, t) = if write {
            f.write_at(
                &((i as u32).wrapping_mul(3) + 1).to_le_bytes(),
                true,
                &w,
                now,
            )
        } else {
            f.read_at(&mut b, true, &w, now)
        };
        assert!(matches!(o, FifoOutcome::Done { .. }));
        stall += t - now;
        now = t + TICKS_PER_CYCLE;
        if !write {
            sum = sum
                .wrapping_mul(31)
                .wrapping_add(u32::from_le_bytes(b) as u64);
        }
    }
    flush_owed_wakes();
    (now, stall, sum, thread_cpu() - c0)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let n = args.first().copied().unwrap_or(1 << 22);
    let depths: Vec<u64> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec![1, 16, 64, 1024]
    };
    for depth in depths {
        // The ring's own cost: one thread writes the FIFO full, then reads it empty (no
        // waits, no cache lines moving between cores).
        if depth > 0 {
            let act = Activity::new();
            let f = Fifo::new("c", 4, depth as u32);
            let g = act.register_timed("x", false, [0; 3], Some(0));
            let stop = AtomicBool::new(false);
            let pos = || None;
            let w = Waiter {
                run: g.state(),
                activity: &act,
                shutdown: &stop,
                pos: &pos,
            };
            let (mut tw, mut tr, mut b) = (0u64, 0u64, [0u8; 4]);
            let mut best = f64::MAX;
            // Best of 5 rounds of n / 5 values (the machine is shared).
            for _ in 0..5 {
                let c0 = thread_cpu();
                let mut moved = 0u64;
                while moved < n / 5 {
                    for i in 0..depth {
                        let v = (i as u32).to_le_bytes();
                        tw = f.write_at(&v, true, &w, tw).1 + TICKS_PER_CYCLE;
                    }
                    for _ in 0..depth {
                        tr = f.read_at(&mut b, true, &w, tr).1 + TICKS_PER_CYCLE;
                    }
                    moved += depth;
                }
                let cpu = (thread_cpu() - c0).as_nanos() as f64 / moved as f64;
                best = best.min(cpu);
            }
            println!(
                "depth {depth:5}: one thread, write then read: {best:6.1} ns CPU/value \
                 (both operations, best of 5)"
            );
        }
        let act = Activity::new();
        let f = Arc::new(Fifo::new("c", 4, depth as u32));
        let t0 = Instant::now();
        let (f2, a2) = (f.clone(), act.clone());
        let wr = std::thread::spawn(move || side(&a2, &f2, n, true));
        let rd = side(&act, &f, n, false);
        let wr = wr.join().unwrap();
        let el = t0.elapsed();
        let cpu = (wr.3 + rd.3).as_nanos() as f64 / n as f64;
        println!(
            "depth {depth:5}: {:6.2} M values/s wall, {cpu:6.1} ns CPU/value (w {:.0} r {:.0}); \
             end ticks w {} r {}, stall w {} r {}, hash {:x}",
            n as f64 / el.as_secs_f64() / 1e6,
            wr.3.as_nanos() as f64 / n as f64,
            rd.3.as_nanos() as f64 / n as f64,
            wr.0,
            rd.0,
            wr.1,
            rd.1,
            rd.2
        );
    }
}
